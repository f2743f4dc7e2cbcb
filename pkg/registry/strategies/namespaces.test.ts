import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { testContext } from '../generic/testing.js';
import { namespaceStrategy } from './namespaces.js';

describe('Namespace spec.finalizers', () => {
  it('takes standard and prefixed names, refuses others as upstream does', () => {
    const ns = (finalizers: string[]) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' }, spec: { finalizers } });
    expect(namespaceStrategy.validate!(ns(['kubernetes', 'example.com/cleanup']), testContext())).toEqual([]);
    expect(namespaceStrategy.validate!(ns(['cleanup', 'a b/c']), testContext()).map(causeToString)).toEqual([
      'spec.finalizers: Invalid value: "cleanup": name is neither a standard finalizer name nor is it fully qualified',
      expect.stringMatching(/^spec\.finalizers: Invalid value: "a b\/c": prefix part a lowercase RFC 1123 subdomain/),
    ]);
  });
});
