import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateAppArmorAnnotationsMatchFields, validateAppArmorPodAnnotations } from './pod-apparmor-annotations.js';

const KEY = 'container.apparmor.security.beta.kubernetes.io/';
const annotation = (container: string): string => `metadata.annotations[${KEY}${container}]`;

describe('validateAppArmorPodAnnotations (ValidateAppArmorPodAnnotations)', () => {
  const spec: KubeObject = { initContainers: [{ name: 'i' }], containers: [{ name: 'c' }], ephemeralContainers: [{ name: 'e' }] };
  const errors = (annotations: Record<string, string>): string[] =>
    validateAppArmorPodAnnotations(annotations, spec, 'metadata.annotations').map(causeToString);

  it('accepts the profiles of containers of every kind, and other annotations', () => {
    expect(errors({ [`${KEY}i`]: 'runtime/default', [`${KEY}c`]: 'localhost/', [`${KEY}e`]: '', other: 'x' })).toEqual([]);
    expect(errors({ [`${KEY}c`]: 'unconfined' })).toEqual([]);
  });

  it('refuses a key naming no container of the pod, and a value naming no profile', () => {
    expect(errors({ [`${KEY}gone`]: 'runtime/default', [`${KEY}c`]: 'docker/default', [`${KEY}`]: 'strict' })).toEqual([
      `${annotation('gone')}: Invalid value: "gone": container not found`,
      `${annotation('c')}: Invalid value: "docker/default": invalid AppArmor profile name: "docker/default"`,
      `${annotation('')}: Invalid value: "": container not found`,
      `${annotation('')}: Invalid value: "strict": invalid AppArmor profile name: "strict"`,
    ]);
  });

  it('uses the path it is given (a template\'s annotations)', () => {
    expect(validateAppArmorPodAnnotations({ [`${KEY}x`]: 'unconfined' }, spec, 'spec.template.metadata.annotations').map(causeToString))
      .toEqual([`spec.template.metadata.annotations[${KEY}x]: Invalid value: "x": container not found`]);
  });
});

describe('validateAppArmorAnnotationsMatchFields (validateAppArmorAnnotationsAndFieldsMatchOnCreate)', () => {
  const TYPE = 'Forbidden: apparmor type in annotation and field must match';
  const PROFILE = 'Forbidden: apparmor profile in annotation and field must match';
  const errors = (spec: KubeObject, annotations: Record<string, string>): string[] =>
    validateAppArmorAnnotationsMatchFields(annotations, spec, 'spec').map(causeToString);
  const profile = (appArmorProfile: KubeObject): KubeObject => ({ appArmorProfile });

  it('accepts annotations that say what the fields say', () => {
    expect(errors({
      containers: [
        { name: 'a', securityContext: profile({ type: 'Unconfined' }) },
        { name: 'b', securityContext: profile({ type: 'RuntimeDefault' }) },
        { name: 'c', securityContext: profile({ type: 'Localhost', localhostProfile: 'p' }) },
        { name: 'd', securityContext: profile({ type: 'Bogus' }) },
        { name: 'e' },
      ],
    }, { [`${KEY}a`]: 'unconfined', [`${KEY}b`]: 'runtime/default', [`${KEY}c`]: 'localhost/p', [`${KEY}d`]: 'x', [`${KEY}e`]: 'x' })).toEqual([]);
  });

  it('refuses a container field the annotation disagrees with, at the container\'s path', () => {
    expect(errors({
      initContainers: [{ name: 'i', securityContext: profile({ type: 'Unconfined' }) }],
      containers: [
        { name: 'a', securityContext: profile({ type: 'RuntimeDefault' }) },
        { name: 'b', securityContext: profile({ type: 'Localhost', localhostProfile: 'p' }) },
        { name: 'c', securityContext: profile({ type: 'Localhost', localhostProfile: 'p' }) },
        { name: 'd', securityContext: profile({ type: 'Localhost' }) },
      ],
      ephemeralContainers: [{ name: 'e', securityContext: profile({ type: 'RuntimeDefault' }) }],
    }, {
      [`${KEY}i`]: 'runtime/default', [`${KEY}a`]: 'localhost/p', [`${KEY}b`]: 'unconfined',
      [`${KEY}c`]: 'localhost/q', [`${KEY}d`]: 'localhost/', [`${KEY}e`]: '',
    })).toEqual([
      `spec.initContainers[0].securityContext.appArmorProfile.type: ${TYPE}`,
      `spec.containers[0].securityContext.appArmorProfile.type: ${TYPE}`,
      `spec.containers[1].securityContext.appArmorProfile.type: ${TYPE}`,
      `spec.containers[2].securityContext.appArmorProfile.localhostProfile: ${PROFILE}`,
      `spec.containers[3].securityContext.appArmorProfile.localhostProfile: ${PROFILE}`,
      `spec.ephemeralContainers[0].securityContext.appArmorProfile.type: ${TYPE}`,
    ]);
  });

  it('holds a container without a field to the pod profile, at the container\'s path', () => {
    const spec = { securityContext: profile({ type: 'Localhost', localhostProfile: 'p' }), containers: [{ name: 'a' }, { name: 'b', securityContext: {} }] };
    expect(errors(spec, { [`${KEY}a`]: 'localhost/q', [`${KEY}b`]: 'runtime/default' })).toEqual([
      `spec.containers[0].securityContext.appArmorProfile.localhostProfile: ${PROFILE}`,
      `spec.containers[1].securityContext.appArmorProfile.type: ${TYPE}`,
    ]);
  });

  it('skips Windows pods', () => {
    expect(errors({ os: { name: 'windows' }, containers: [{ name: 'a', securityContext: profile({ type: 'RuntimeDefault' }) }] },
      { [`${KEY}a`]: 'unconfined' })).toEqual([]);
  });
});
