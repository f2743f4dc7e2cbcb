import { describe, expect, it } from 'vitest';
import { betaLabelsToReconcile } from './labels.js';

describe('betaLabelsToReconcile (upstream reconcileNodeLabels)', () => {
  it('adds a missing beta OS/arch label, and overwrites one that differs, from the stable label', () => {
    expect(betaLabelsToReconcile({ 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'arm64', 'beta.kubernetes.io/arch': 'amd64' }))
      .toEqual({ 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'arm64' });
  });

  it('leaves a beta label without its stable label alone: the stable one is the source of truth, never written', () => {
    expect(betaLabelsToReconcile({ 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64' })).toBeUndefined();
    expect(betaLabelsToReconcile({ 'kubernetes.io/os': 'linux', 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64' })).toBeUndefined();
  });

  it('has nothing to do for a node without labels or with matching ones (an empty value counts as a value)', () => {
    expect(betaLabelsToReconcile(undefined)).toBeUndefined();
    expect(betaLabelsToReconcile({ 'kubernetes.io/os': '', 'beta.kubernetes.io/os': '' })).toBeUndefined();
    expect(betaLabelsToReconcile({ 'kubernetes.io/os': '' })).toEqual({ 'beta.kubernetes.io/os': '' });
  });
});
