import { describe, expect, it } from 'vitest';
import type { KubeObject, ResourceType } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { systemContext } from '../context.js';
import type { Strategy } from '../strategy.js';
import { strategyFor } from './index.js';

const COST = 'controller.kubernetes.io/pod-deletion-cost';
const MIRROR = 'kubernetes.io/config.mirror';
const SECCOMP = 'container.seccomp.security.alpha.kubernetes.io/c';
const strategy = (plural: string, group = ''): Strategy => strategyFor({ group, plural } as ResourceType);
const annotationErrors = (causes: StatusCause[]): string[] =>
  causes.filter((c) => /annotations|seccompProfile/.test(c.field ?? '')).map(causeToString);
const pod = (annotations: Record<string, string>, spec: KubeObject = {}): KubeObject =>
  ({ metadata: { name: 'p', namespace: 'default', annotations }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });

describe('pod-specific annotations on the kinds with a pod spec (ValidatePodSpecificAnnotations and its callers)', () => {
  const ctx = systemContext('default');
  const create = (obj: KubeObject): string[] => {
    const pods = strategy('pods');
    pods.prepareForCreate!(obj, ctx);
    return annotationErrors(pods.validate!(obj, ctx));
  };
  const BAD_COST = `metadata.annotations[${COST}]: Invalid value: "x": must be a 32bit integer`;

  it('refuses a new pod for its annotations, and for a seccomp annotation its field disagrees with', () => {
    expect(create(pod({ [MIRROR]: 'h', [COST]: 'x' }))).toEqual([
      `metadata.annotations[${MIRROR}]: Invalid value: "h": must set spec.nodeName if mirror pod annotation is set`,
      BAD_COST,
    ]);
    expect(create(pod({ [SECCOMP]: 'unconfined' }, { containers: [{ name: 'c', image: 'i', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }] })))
      .toEqual(['spec.containers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match']);
  });

  it('lets an update keep a deletion cost that was already invalid, but not make one invalid (pods, their status, and templates)', () => {
    const pods = strategy('pods');
    const valid = pod({ [COST]: '1' });
    const invalid = pod({ [COST]: 'x' });
    expect(annotationErrors(pods.validateUpdate!(invalid, valid, ctx))).toEqual([BAD_COST]);
    expect(annotationErrors(pods.validateUpdate!(invalid, structuredClone(invalid), ctx))).toEqual([]);
    expect(annotationErrors(pods.validateSubresource!(invalid, valid, ctx, 'status'))).toEqual([BAD_COST]);
    expect(annotationErrors(pods.validateSubresource!(invalid, structuredClone(invalid), ctx, 'status'))).toEqual([]);
    expect(annotationErrors(pods.validateSubresource!(invalid, valid, ctx, 'ephemeralcontainers'))).toEqual([BAD_COST]);
    // seccomp annotations and fields are held to each other on create only
    const mismatched = pod({ [SECCOMP]: 'unconfined' }, { containers: [{ name: 'c', image: 'i', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }] });
    expect(annotationErrors(pods.validateUpdate!(mismatched, structuredClone(mismatched), ctx))).toEqual([]);

    const deployments = strategy('deployments', 'apps');
    const deployment = (cost: string): KubeObject => ({
      metadata: { name: 'd', namespace: 'default' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' }, annotations: { [COST]: cost } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    const templateCost = `spec.template.metadata.annotations[${COST}]: Invalid value: "x": must be a 32bit integer`;
    expect(annotationErrors(deployments.validate!(deployment('x'), ctx))).toEqual([templateCost]);
    const update = (obj: KubeObject, old: KubeObject): StatusCause[] => [
      ...(deployments.updateValidationIsComplete ? [] : deployments.validate!(obj, ctx)), ...deployments.validateUpdate!(obj, old, ctx)];
    expect(annotationErrors(update(deployment('x'), deployment('1')))).toEqual([templateCost]);
    expect(annotationErrors(update(deployment('x'), deployment('x')))).toEqual([]);
  });
});
