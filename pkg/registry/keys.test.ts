import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../api/types.js';
import { namespaceOfKey, objectKey } from './keys.js';

const rt = (group: string, plural: string, namespaced: boolean, storageGroup?: string): ResourceType => ({
  group, version: 'v1', kind: 'K', plural, singular: 'k', namespaced, verbs: [], definition: 'd', storageGroup,
});

describe('storage keys', () => {
  it('give back the namespace of an object key, for core, grouped, re-homed and cluster-scoped resources', () => {
    for (const r of [rt('', 'pods', true), rt('apps', 'deployments', true), rt('events.k8s.io', 'events', true, '')]) {
      expect(namespaceOfKey(r, objectKey(r, 'team-a', 'x.y-1'))).toBe('team-a');
    }
    expect(objectKey(rt('events.k8s.io', 'events', true, ''), 'ns', 'e')).toBe('/registry/events/ns/e');
    expect(namespaceOfKey(rt('', 'nodes', false), objectKey(rt('', 'nodes', false), undefined, 'n1'))).toBe('');
  });
});
