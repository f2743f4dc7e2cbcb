import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../client/index.js';
import { ResourceFieldError, resourceFieldValue, selectedContainer } from './resource-field.js';

const node = { cpu: '4', memory: '8Gi', ephemeralStorage: '100Gi' };
const c = (limits?: Record<string, string>, requests?: Record<string, string>) => ({ name: 'c', resources: { ...(limits ? { limits } : {}), ...(requests ? { requests } : {}) } });

describe('resourceFieldRef values', () => {
  it('defaults unset or zero cpu, memory and ephemeral-storage limits to the node\'s allocatable (MergeContainerResourceLimits)', () => {
    expect(resourceFieldValue(c(), { resource: 'limits.cpu' }, node)).toBe('4');
    expect(resourceFieldValue(c(), { resource: 'limits.memory', divisor: '1Mi' }, node)).toBe('8192');
    expect(resourceFieldValue(c(), { resource: 'limits.ephemeral-storage', divisor: '1Gi' }, node)).toBe('100');
    expect(resourceFieldValue(c({ memory: '0' }), { resource: 'limits.memory', divisor: '1Gi' }, node)).toBe('8');
    // requests do not default
    expect(resourceFieldValue(c(), { resource: 'requests.ephemeral-storage' }, node)).toBe('0');
  });

  it('divides by the divisor and rounds up: cpu in milli-units, the rest in units', () => {
    expect(resourceFieldValue(c({ cpu: '250m' }), { resource: 'limits.cpu' }, node)).toBe('1');
    expect(resourceFieldValue(c({ cpu: '250m' }), { resource: 'limits.cpu', divisor: '1m' }, node)).toBe('250');
    expect(resourceFieldValue(c(undefined, { cpu: '1500m' }), { resource: 'requests.cpu', divisor: '100m' }, node)).toBe('15');
    expect(resourceFieldValue(c({ memory: '64Mi' }), { resource: 'limits.memory', divisor: '1M' }, node)).toBe('68');
    expect(resourceFieldValue(c({ 'ephemeral-storage': '10Mi' }), { resource: 'limits.ephemeral-storage', divisor: '1Ki' }, node)).toBe('10240');
    expect(resourceFieldValue(c(undefined, { 'hugepages-2Mi': '4Mi' }), { resource: 'requests.hugepages-2Mi', divisor: '2Mi' }, node)).toBe('2');
  });

  it('refuses resources the downward API does not expose', () => {
    expect(() => resourceFieldValue(c(), { resource: 'limits.nvidia.com/gpu' }, node)).toThrow(new ResourceFieldError('unsupported container resource : limits.nvidia.com/gpu'));
  });

  it('finds the named container among the containers and init containers', () => {
    const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { initContainers: [{ name: 'init' }], containers: [{ name: 'main' }] } };
    expect(selectedContainer(pod, { containerName: 'init', resource: 'limits.cpu' }).name).toBe('init');
    expect(selectedContainer(pod, { resource: 'limits.cpu' }, { name: 'own' }).name).toBe('own');
    expect(() => selectedContainer(pod, { containerName: 'x', resource: 'limits.cpu' })).toThrow('container x not found');
  });
});
