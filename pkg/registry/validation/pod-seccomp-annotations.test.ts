import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateSeccompAnnotationsMatchFields, validateSeccompPodAnnotations } from './pod-seccomp-annotations.js';

const POD = 'seccomp.security.alpha.kubernetes.io/pod';
const CONTAINER = 'container.seccomp.security.alpha.kubernetes.io/';

describe('validateSeccompPodAnnotations (ValidateSeccompPodAnnotations)', () => {
  const errors = (annotations: Record<string, string>): string[] => validateSeccompPodAnnotations(annotations, 'metadata.annotations').map(causeToString);

  it('accepts the profiles a seccomp annotation may name, and other annotations', () => {
    expect(errors({ [POD]: 'runtime/default', [`${CONTAINER}a`]: 'docker/default', [`${CONTAINER}b`]: 'unconfined', [`${CONTAINER}c`]: 'localhost/p/q.json', other: 'x' })).toEqual([]);
  });

  it('refuses a profile that is none, and a localhost one that leaves its directory, at the annotation as a child path', () => {
    expect(errors({ [`${CONTAINER}a`]: 'Unconfined', [POD]: 'localhost//abs', [`${CONTAINER}b`]: 'localhost/../x' })).toEqual([
      `metadata.annotations.${POD}: Invalid value: "/abs": must be a relative path`,
      `metadata.annotations.${CONTAINER}a: Invalid value: "Unconfined": must be a valid seccomp profile`,
      `metadata.annotations.${CONTAINER}b: Invalid value: "../x": must not contain '..'`,
    ]);
  });
});

describe('validateSeccompAnnotationsMatchFields (validateSeccompAnnotationsAndFields)', () => {
  const TYPE = 'Forbidden: seccomp type in annotation and field must match';
  const PROFILE = 'Forbidden: seccomp profile in annotation and field must match';
  const errors = (spec: KubeObject, annotations: Record<string, string>): string[] =>
    validateSeccompAnnotationsMatchFields(annotations, spec, 'spec').map(causeToString);
  const sc = (seccompProfile: KubeObject): KubeObject => ({ seccompProfile });

  it('accepts annotations that say what the fields say; a container without a field is not held to the pod\'s', () => {
    expect(errors({
      securityContext: sc({ type: 'RuntimeDefault' }),
      containers: [
        { name: 'a', securityContext: sc({ type: 'Unconfined' }) },
        { name: 'b', securityContext: sc({ type: 'RuntimeDefault' }) },
        { name: 'c', securityContext: sc({ type: 'Localhost', localhostProfile: 'p' }) },
        { name: 'd' },
      ],
    }, { [POD]: 'docker/default', [`${CONTAINER}a`]: 'unconfined', [`${CONTAINER}b`]: 'runtime/default', [`${CONTAINER}c`]: 'localhost/p', [`${CONTAINER}d`]: 'unconfined' })).toEqual([]);
  });

  it('refuses the pod field and each container field its annotation disagrees with, Windows pods included', () => {
    expect(errors({
      os: { name: 'windows' },
      securityContext: sc({ type: 'Localhost', localhostProfile: 'p' }),
      initContainers: [{ name: 'i', securityContext: sc({ type: 'Unconfined' }) }],
      containers: [
        { name: 'a', securityContext: sc({ type: 'RuntimeDefault' }) },
        { name: 'b', securityContext: sc({ type: 'Localhost' }) },
      ],
      ephemeralContainers: [{ name: 'e', securityContext: sc({ type: 'Localhost', localhostProfile: 'p' }) }],
    }, { [POD]: 'localhost/q', [`${CONTAINER}i`]: 'runtime/default', [`${CONTAINER}a`]: 'unconfined', [`${CONTAINER}b`]: 'localhost/p', [`${CONTAINER}e`]: 'p' })).toEqual([
      `spec.securityContext.seccompProfile.localhostProfile: ${PROFILE}`,
      `spec.initContainers[0].securityContext.seccompProfile.type: ${TYPE}`,
      `spec.containers[0].securityContext.seccompProfile.type: ${TYPE}`,
      `spec.containers[1].securityContext.seccompProfile.localhostProfile: ${PROFILE}`,
      `spec.ephemeralContainers[0].securityContext.seccompProfile.type: ${TYPE}`,
    ]);
  });
});
