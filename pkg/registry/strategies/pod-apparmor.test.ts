import { describe, expect, it } from 'vitest';
import type { KubeObject, ResourceType } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { systemContext } from '../context.js';
import type { Strategy } from '../strategy.js';
import { strategyFor } from './index.js';
import { podStrategy } from './pods.js';

const KEY = 'container.apparmor.security.beta.kubernetes.io/';
const warning = (name: string): string => `metadata.annotations[${KEY}${name}]: deprecated since v1.30; use the "appArmorProfile" field instead`;

/** A pod prepared for create, and the warnings that preparing it recorded. */
function prepare(spec: KubeObject, annotations?: Record<string, string>): { pod: KubeObject; warnings: string[] } {
  const ctx = systemContext('default');
  const pod: KubeObject = { metadata: { name: 'p', annotations }, spec };
  podStrategy.prepareForCreate!(pod, ctx);
  return { pod, warnings: ctx.warnings };
}

describe('pod AppArmor annotations and fields on create (applyAppArmorVersionSkew)', () => {
  it('copies a container annotation to its field and warns of it', () => {
    const { pod, warnings } = prepare({ initContainers: [{ name: 'init' }], containers: [{ name: 'a' }, { name: 'b', securityContext: { runAsUser: 1 } }] }, {
      [`${KEY}init`]: 'runtime/default', [`${KEY}b`]: 'localhost/my-profile', [`${KEY}gone`]: 'unconfined',
    });
    expect(pod.spec.initContainers[0].securityContext).toEqual({ appArmorProfile: { type: 'RuntimeDefault' } });
    expect(pod.spec.containers[0].securityContext).toBeUndefined();
    expect(pod.spec.containers[1].securityContext).toEqual({ runAsUser: 1, appArmorProfile: { type: 'Localhost', localhostProfile: 'my-profile' } });
    expect(warnings).toEqual([warning('init'), warning('b')]);
  });

  it('warns of an annotation that makes no valid field, copying nothing', () => {
    const { pod, warnings } = prepare({ containers: [{ name: 'a' }, { name: 'b' }] }, { [`${KEY}a`]: 'localhost/', [`${KEY}b`]: 'bogus' });
    expect(pod.spec.containers.map((c: KubeObject) => c.securityContext)).toEqual([undefined, undefined]);
    expect(warnings).toEqual([warning('a'), warning('b')]);
  });

  it('neither copies nor warns where the annotation says what the pod profile says, or the container has a field', () => {
    const { pod, warnings } = prepare({
      securityContext: { appArmorProfile: { type: 'Unconfined' } },
      containers: [{ name: 'a' }, { name: 'b', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }],
    }, { [`${KEY}a`]: 'unconfined', [`${KEY}b`]: 'unconfined' });
    expect(pod.spec.containers[0].securityContext).toBeUndefined();
    expect(pod.spec.containers[1].securityContext).toEqual({ appArmorProfile: { type: 'RuntimeDefault' } });
    expect(warnings).toEqual([]);
  });

  it('writes the annotation of a container profile, or else the pod one, for kubelets that read only annotations', () => {
    const { pod, warnings } = prepare({
      securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'pod-profile' } },
      containers: [{ name: 'a' }, { name: 'b', securityContext: { appArmorProfile: { type: 'Unconfined' } } }, { name: 'c', securityContext: { appArmorProfile: { type: 'Localhost' } } }],
    });
    expect(pod.metadata!.annotations).toEqual({ [`${KEY}a`]: 'localhost/pod-profile', [`${KEY}b`]: 'unconfined' });
    expect(warnings).toEqual([]);
    expect(prepare({ containers: [{ name: 'a' }] }).pod.metadata!.annotations).toBeUndefined();
  });

  it('leaves Windows pods alone', () => {
    const { pod, warnings } = prepare({ os: { name: 'windows' }, containers: [{ name: 'a' }] }, { [`${KEY}a`]: 'unconfined' });
    expect(pod.spec.containers[0].securityContext).toBeUndefined();
    expect(warnings).toEqual([]);
  });
});

describe('pod AppArmor annotations validated (ValidateAppArmorPodAnnotations, and on create validateAppArmorAnnotationsAndFieldsMatchOnCreate)', () => {
  const strategy = (plural: string, group = ''): Strategy => strategyFor({ group, plural } as ResourceType);
  const appArmorErrors = (causes: StatusCause[]): string[] =>
    causes.filter((c) => /apparmor|appArmor/.test(c.field ?? '')).map(causeToString);
  /** The causes a pod is refused for when created, after PrepareForCreate as upstream runs it. */
  function create(spec: KubeObject, annotations?: Record<string, string>): string[] {
    const pods = strategy('pods');
    const ctx = systemContext('default');
    const pod: KubeObject = { metadata: { name: 'p', namespace: 'default', annotations }, spec };
    pods.prepareForCreate!(pod, ctx);
    return appArmorErrors(pods.validate!(pod, ctx));
  }
  const MISMATCH = 'Forbidden: apparmor type in annotation and field must match';

  it('accepts what the version skew step fixed up: an annotation copied over the pod profile, a field written to the annotation', () => {
    expect(create({
      securityContext: { appArmorProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'a', image: 'i' }, { name: 'b', image: 'i', securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'p' } } }],
    }, { [`${KEY}a`]: 'unconfined' })).toEqual([]);
  });

  it('refuses a new pod whose annotation disagrees with a field, or with the pod profile it could not be copied over', () => {
    expect(create({ containers: [{ name: 'a', image: 'i', securityContext: { appArmorProfile: { type: 'RuntimeDefault' } } }] }, { [`${KEY}a`]: 'unconfined' }))
      .toEqual([`spec.containers[0].securityContext.appArmorProfile.type: ${MISMATCH}`]);
    expect(create({ securityContext: { appArmorProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'a', image: 'i' }] }, { [`${KEY}a`]: 'bogus' })).toEqual([
      `metadata.annotations[${KEY}a]: Invalid value: "bogus": invalid AppArmor profile name: "bogus"`,
      `spec.containers[0].securityContext.appArmorProfile.type: ${MISMATCH}`,
    ]);
  });

  it('refuses an annotation naming no container, on create and on update of a pod, and in a template', () => {
    const notFound = (path: string): string => `${path}[${KEY}gone]: Invalid value: "gone": container not found`;
    expect(create({ containers: [{ name: 'a', image: 'i' }] }, { [`${KEY}gone`]: 'runtime/default' })).toEqual([notFound('metadata.annotations')]);
    const pod: KubeObject = { metadata: { name: 'p', namespace: 'default', annotations: { [`${KEY}gone`]: 'unconfined' } }, spec: { containers: [{ name: 'a', image: 'i' }] } };
    expect(appArmorErrors(strategy('pods').validateUpdate!(pod, structuredClone(pod), systemContext('default')))).toEqual([notFound('metadata.annotations')]);
    const template = { metadata: { annotations: { [`${KEY}gone`]: 'unconfined' } }, spec: { containers: [{ name: 'a', image: 'i' }] } };
    for (const plural of ['deployments', 'statefulsets']) {
      const obj: KubeObject = { metadata: { name: 'w', namespace: 'default' }, spec: { selector: { matchLabels: { a: 'b' } }, template: structuredClone(template) } };
      expect(appArmorErrors(strategy(plural, 'apps').validate!(obj, systemContext('default')))).toEqual([notFound('spec.template.metadata.annotations')]);
    }
  });
});
