import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { systemContext } from '../context.js';
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
