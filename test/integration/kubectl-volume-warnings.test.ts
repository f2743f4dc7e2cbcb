// The real kubectl prints the apiserver's PersistentVolumeClaim and PersistentVolume warnings (upstream's
// pkg/api/persistentvolumeclaim and pkg/api/persistentvolume) and a pod's for the AppArmor annotations it turns
// into fields, and its refusals for the pod-specific annotations, on a server dry run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
});
afterAll(async () => {
  await s?.close();
});

const CLAIM = `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  annotations: {volume.beta.kubernetes.io/storage-class: slow}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1500m}}
`;

const VOLUME = `apiVersion: v1
kind: PersistentVolume
metadata: {name: old}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 1Gi}
  persistentVolumeReclaimPolicy: Recycle
  hostPath: {path: /data}
`;

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: armored
  annotations: {container.apparmor.security.beta.kubernetes.io/c: runtime/default}
spec:
  containers: [{name: c, image: nginx}]
`;

describe('volume and AppArmor warnings and AppArmor errors through kubectl', () => {
  it('prints them on a server dry run', async () => {
    const claim = await s.kubectlWithInput(CLAIM, 'create', '-f', '-', '--dry-run=server');
    expect([claim.code, claim.stderr]).toEqual([0, [
      'Warning: metadata.annotations[volume.beta.kubernetes.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
      'Warning: spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
      '',
    ].join('\n')]);
    const volume = await s.kubectlWithInput(VOLUME, 'create', '-f', '-', '--dry-run=server');
    expect([volume.code, volume.stderr]).toEqual([0,
      'Warning: spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.\n']);
    const pod = await s.kubectlWithInput(POD, 'create', '-f', '-', '--dry-run=server', '-o', 'jsonpath={.spec.containers[0].securityContext.appArmorProfile.type}');
    expect([pod.code, pod.stdout, pod.stderr]).toEqual([0, 'RuntimeDefault',
      'Warning: metadata.annotations[container.apparmor.security.beta.kubernetes.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead\n']);
  });

  it('refuses a pod whose AppArmor annotation disagrees with its field, or names no container', async () => {
    const mismatched = POD.replace('name: armored', 'name: mismatched').replace('{name: c, image: nginx}',
      '{name: c, image: nginx, securityContext: {appArmorProfile: {type: Unconfined}}}');
    const refused = await s.kubectlWithInput(mismatched, 'create', '-f', '-', '--dry-run=server');
    expect([refused.code, refused.stderr]).toEqual([1, 'The Pod "mismatched" is invalid: '
      + 'spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match\n']);
    const orphan = await s.kubectlWithInput(POD.replace('apparmor.security.beta.kubernetes.io/c:', 'apparmor.security.beta.kubernetes.io/gone:'),
      'create', '-f', '-', '--dry-run=server');
    expect([orphan.code, orphan.stderr]).toEqual([1, 'The Pod "armored" is invalid: metadata.annotations[container.apparmor.security.beta.kubernetes.io/gone]: '
      + 'Invalid value: "gone": container not found\n']);
  });

  it('refuses a pod for its other pod-specific annotations, and a seccomp annotation its field disagrees with', async () => {
    const pod = POD.replace('name: armored', 'name: costly')
      .replace('{container.apparmor.security.beta.kubernetes.io/c: runtime/default}',
        '{controller.kubernetes.io/pod-deletion-cost: "+1", container.seccomp.security.alpha.kubernetes.io/c: unconfined}')
      .replace('{name: c, image: nginx}', '{name: c, image: nginx, securityContext: {seccompProfile: {type: RuntimeDefault}}}');
    const refused = await s.kubectlWithInput(pod, 'create', '-f', '-', '--dry-run=server');
    expect([refused.code, refused.stderr]).toEqual([1, 'The Pod "costly" is invalid: \n'
      + '* metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+1": must be a 32bit integer\n'
      + '* spec.containers[0].securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match\n']);
  });
});
