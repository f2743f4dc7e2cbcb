// The real kubectl prints the apiserver's pod spec warnings (upstream's pkg/api/pod/warnings.go, sent as Warning
// headers by the pod and workload strategies): a pod's on a server dry run, a Deployment's on create and again on a
// write that moves its generation (kubectl scale), none on one that does not (kubectl label).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { WEB_DEPLOYMENT } from './kubectl-objects.js';

let s: TestApiServer;
let dir: string;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
  dir = await mkdtemp(join(tmpdir(), 'pod-warnings-'));
});
afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const WARNPOD = `apiVersion: v1
kind: Pod
metadata:
  name: warnpod
  annotations: {seccomp.security.alpha.kubernetes.io/pod: runtime/default}
spec:
  nodeSelector: {beta.kubernetes.io/arch: amd64}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a]}]
  containers:
  - name: c
    image: nginx
    resources: {limits: {memory: 100m}}
    ports: [{containerPort: 80}, {containerPort: 80}]
`;

/** WEB_DEPLOYMENT, its pods asking for a node by the deprecated OS label. */
const DEPLOYMENT = WEB_DEPLOYMENT.replace('    spec:\n', '    spec:\n      nodeSelector: {beta.kubernetes.io/os: linux}\n');

const OS_WARNING = 'Warning: spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead\n';

describe('pod spec warnings through kubectl', () => {
  it('prints a pod\'s warnings on a server dry run, in upstream\'s order', async () => {
    const file = join(dir, 'warnpod.yaml');
    await writeFile(file, WARNPOD);
    const r = await s.kubectl('create', '-f', file, '--dry-run=server');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('pod/warnpod created (server dry run)\n');
    expect(r.stderr).toBe([
      'Warning: spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
      'Warning: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      'Warning: metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
      'Warning: spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer',
      // the request, defaulted to the limit
      'Warning: spec.containers[0].resources.requests[memory]: fractional byte value "100m" is invalid, must be an integer',
      'Warning: spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
      '',
    ].join('\n'));
    expect((await s.kubectl('get', 'pod', 'warnpod')).code).toBe(1);
  });

  it('prints a Deployment\'s template warnings on create and on scale, not on a label', async () => {
    const created = await s.kubectlWithInput(DEPLOYMENT, 'create', '-f', '-');
    expect([created.code, created.stdout, created.stderr]).toEqual([0, 'deployment.apps/web created\n', OS_WARNING]);
    const scaled = await s.kubectl('scale', 'deployment', 'web', '--replicas=3');
    expect([scaled.code, scaled.stdout, scaled.stderr]).toEqual([0, 'deployment.apps/web scaled\n', OS_WARNING]);
    const labelled = await s.kubectl('label', 'deployment', 'web', 'tier=front');
    expect([labelled.code, labelled.stdout, labelled.stderr]).toEqual([0, 'deployment.apps/web labeled\n', '']);
  });
});
