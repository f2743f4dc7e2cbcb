// The process runtime's answer to an image outside its catalog: with --unknown-images=fail, the pull fails as a
// registry without the image would have it fail (ErrImagePull, then ImagePullBackOff), while catalog images run.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ProcessRuntime } from '../../pkg/kubelet/index.js';
import type { KubeObject } from '../../pkg/client/index.js';
import { createBound, eventually, pod, removeRootDir, startProcessNode, type ProcessNode } from './kubelet-support.js';

let n: ProcessNode;
let rootDir: string;
beforeAll(async () => {
  rootDir = await mkdtemp(join(tmpdir(), 'mini-kube-unknown-images-'));
  n = await startProcessNode('node-u', { runtimeFor: (_i, _n, hostIp) => new ProcessRuntime({ rootDir, hostIp, unknownImages: 'fail' }) });
}, 30_000);
afterAll(async () => {
  await n?.stop();
  await removeRootDir(rootDir);
});

const waiting = (p: KubeObject): { reason?: string; message?: string } | undefined =>
  (p.status?.containerStatuses as { state?: { waiting?: { reason?: string; message?: string } } }[] | undefined)?.[0]?.state?.waiting;

it('an image outside the catalog is not found: ErrImagePull with containerd\'s words, then ImagePullBackOff; a catalog image runs', async () => {
  await createBound(n.admin, pod('nowhere', { spec: { containers: [{ name: 'c', image: 'doesnotexist.example/foo:1' }] } }), 'node-u');
  await createBound(n.admin, pod('known', { spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '60'] }] } }), 'node-u');
  const failed = await eventually(async () => {
    const p = await n.admin.pods('default').get('nowhere');
    return waiting(p)?.reason === 'ErrImagePull' ? p : undefined;
  }, 15_000, 'ErrImagePull');
  expect(waiting(failed)?.message).toBe('Failed to pull image "doesnotexist.example/foo:1": rpc error: code = NotFound desc = failed to pull and unpack image "doesnotexist.example/foo:1": failed to resolve reference "doesnotexist.example/foo:1": doesnotexist.example/foo:1: not found');
  await eventually(async () => waiting(await n.admin.pods('default').get('nowhere'))?.reason === 'ImagePullBackOff', 15_000, 'ImagePullBackOff');
  await eventually(async () => (await n.admin.pods('default').get('known')).status?.phase === 'Running', 15_000, 'the busybox pod running');
});
