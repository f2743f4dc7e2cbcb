import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { formatTime } from '../../client/index.js';
import { observeHealth, type Health } from './health.js';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const grace = { monitorMs: 50_000, startupMs: 60_000 };
const node = (created: number, heartbeat?: number): KubeObject => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', creationTimestamp: formatTime(created) },
  ...(heartbeat === undefined ? {} : { status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: formatTime(heartbeat) }] } }),
});

describe('observeHealth (upstream tryUpdateNodeHealth bookkeeping)', () => {
  it('counts the startup grace period of a node that never posted status from its creation, not from first sight', () => {
    const health = new Map<string, Health>();
    // first seen 3 s after creation: silent only once 60 s from creation have passed
    expect(observeHealth(health, node(T0), undefined, T0 + 3_000, grace)).toBe(false);
    expect(observeHealth(health, node(T0), undefined, T0 + 60_000, grace)).toBe(false);
    expect(observeHealth(health, node(T0), undefined, T0 + 60_001, grace)).toBe(true);
    // first seen (a controller restarted) long after its creation: silent at once
    expect(observeHealth(new Map(), node(T0), undefined, T0 + 120_000, grace)).toBe(true);
  });

  it('counts a node with a Ready condition from when it is first seen, and from each new heartbeat or lease renewal', () => {
    const health = new Map<string, Health>();
    expect(observeHealth(health, node(T0, T0), undefined, T0 + 120_000, grace)).toBe(false);
    expect(observeHealth(health, node(T0, T0), undefined, T0 + 170_001, grace)).toBe(true);
    expect(observeHealth(health, node(T0, T0 + 170_000), undefined, T0 + 171_000, grace)).toBe(false);
    expect(observeHealth(health, node(T0, T0 + 170_000), formatTime(T0 + 200_000), T0 + 230_000, grace)).toBe(false);
    expect(observeHealth(health, node(T0, T0 + 170_000), formatTime(T0 + 200_000), T0 + 280_001, grace)).toBe(true);
  });

  it('a lease renewed by a node that never posted status keeps it alive', () => {
    const health = new Map<string, Health>();
    expect(observeHealth(health, node(T0), formatTime(T0 + 1_000), T0 + 2_000, grace)).toBe(false);
    expect(observeHealth(health, node(T0), formatTime(T0 + 1_000), T0 + 62_000, grace)).toBe(false);
    expect(observeHealth(health, node(T0), formatTime(T0 + 1_000), T0 + 62_001, grace)).toBe(true);
  });
});
