import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../api/types.js';
import type { Registry } from '../registry/generic/registry.js';
import { mayNeedCel } from './cel-loading.js';

const rt = (group: string, plural: string): ResourceType => ({ group, version: 'v1', kind: 'K', plural, singular: 'k', namespaced: true, verbs: [] }) as unknown as ResourceType;
const regs = (existing: string[]): { get(group: string, version: string, plural: string): Registry | undefined } => ({
  get: (_g, _v, plural) => ({ hasAny: () => existing.includes(plural) } as unknown as Registry),
});

describe('when the apiserver loads CEL', () => {
  it('not for built-in objects while no policy or webhook configuration exists', () => {
    expect(mayNeedCel(regs([]), { resource: rt('', 'configmaps') })).toBe(false);
    expect(mayNeedCel(regs([]), { resource: rt('apps', 'deployments') })).toBe(false);
  });

  it('for CRDs, custom resources and admission configurations, whose expressions are compiled', () => {
    expect(mayNeedCel(regs([]), { resource: rt('apiextensions.k8s.io', 'customresourcedefinitions') })).toBe(true);
    expect(mayNeedCel(regs([]), { resource: rt('example.com', 'widgets') })).toBe(true);
    expect(mayNeedCel(regs([]), { resource: rt('admissionregistration.k8s.io', 'validatingwebhookconfigurations') })).toBe(true);
  });

  it('for every request once a policy or a webhook configuration exists', () => {
    expect(mayNeedCel(regs(['validatingadmissionpolicies']), { resource: rt('', 'configmaps') })).toBe(true);
    expect(mayNeedCel(regs(['mutatingwebhookconfigurations']), { resource: rt('', 'pods') })).toBe(true);
  });
});
