import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.js';
import { ServiceAccount } from './service-account.js';
import { attrs, memoryDeps } from './testing.js';

const account = (annotations: Record<string, string>, secrets: string[] = [], pull: string[] = []): KubeObject => ({
  metadata: { name: 'robot', namespace: 'ns', annotations }, secrets: secrets.map((name) => ({ name })), imagePullSecrets: pull.map((name) => ({ name })),
});
const plugin = (sa: KubeObject) => new ServiceAccount(memoryDeps([{ plural: 'serviceaccounts', obj: sa }, { plural: 'namespaces', obj: { metadata: { name: 'ns' } } }]));
const pod = (spec: Record<string, unknown>): KubeObject => ({ metadata: { name: 'p', namespace: 'ns' }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c' }], ...spec } });

describe('ServiceAccount: kubernetes.io/enforce-mountable-secrets', () => {
  const enforced = account({ 'kubernetes.io/enforce-mountable-secrets': 'true' }, ['listed'], ['pull']);

  it('refuses a pod using a secret its account does not list, in upstream\'s words', () => {
    const refused = (spec: Record<string, unknown>) => () => plugin(enforced).validate(attrs('pods', 'CREATE', pod(spec)));
    expect(refused({ volumes: [{ name: 'v', secret: { secretName: 'other' } }] }))
      .toThrow('pods "p" is forbidden: volume with secret.secretName="other" is not allowed because service account robot does not reference that secret');
    expect(refused({ containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'other', key: 'k' } } }] }] }))
      .toThrow('container c with envVar E referencing secret.secretName="other" is not allowed because service account robot does not reference that secret');
    expect(refused({ initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'other' } }] }] }))
      .toThrow('init container i with envFrom referencing secret.secretName="other" is not allowed because service account robot does not reference that secret');
    expect(refused({ imagePullSecrets: [{ name: 'pull' }, { name: 'nope' }] }))
      .toThrow('imagePullSecrets[1].name="nope" is not allowed because service account robot does not reference that imagePullSecret');
    // what the account lists is fine
    expect(refused({ volumes: [{ name: 'v', secret: { secretName: 'listed' } }], imagePullSecrets: [{ name: 'pull' }] })).not.toThrow();
  });

  it('checks ephemeral containers when they are added, and nothing without the annotation', () => {
    const withEphemeral = pod({ ephemeralContainers: [{ name: 'debug', envFrom: [{ secretRef: { name: 'other' } }] }] });
    expect(() => plugin(enforced).validate(attrs('pods', 'UPDATE', withEphemeral, { subresource: 'ephemeralcontainers' })))
      .toThrow('ephemeral container debug with envFrom referencing secret.secretName="other" is not allowed because service account robot does not reference that secret');
    const free = account({ 'kubernetes.io/enforce-mountable-secrets': 'false' });
    expect(() => plugin(free).validate(attrs('pods', 'CREATE', pod({ volumes: [{ name: 'v', secret: { secretName: 'other' } }] })))).not.toThrow();
  });
});
