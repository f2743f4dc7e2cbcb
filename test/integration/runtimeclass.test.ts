// node.k8s.io/v1 RuntimeClasses with the real kubectl and @kubernetes/client-node: served, printed and validated as
// upstream, and the RuntimeClass admission plugin giving a pod its class's overhead and scheduling constraints.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let api: TestApiServer;
beforeAll(async () => { api = await startTestApiServer(); }, 30_000);
afterAll(async () => { await api?.close(); });

const RC = `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: sandboxed
handler: gvisor
overhead:
  podFixed:
    cpu: 250m
    memory: 120Mi
scheduling:
  nodeSelector:
    sandbox: "true"
  tolerations:
  - key: sandbox
    operator: Exists
    effect: NoSchedule
`;

const pod = (name: string, spec: Record<string, unknown>) => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

describe('RuntimeClass', () => {
  it('is served with kubectl: apply, get (HANDLER column), explain; the handler is a DNS label and immutable', async () => {
    expect((await api.kubectlWithInput(RC, 'apply', '-f', '-')).stdout).toContain('runtimeclass.node.k8s.io/sandboxed created');
    expect((await api.kubectl('get', 'runtimeclass')).stdout).toMatch(/NAME\s+HANDLER\s+AGE\nsandboxed\s+gvisor\s+/);
    expect((await api.kubectl('explain', 'runtimeclass.handler')).stdout).toContain('FIELD: handler <string>');
    const bad = await api.kubectlWithInput(RC.replace('name: sandboxed', 'name: bad').replace('handler: gvisor', 'handler: Not_A_Label'), 'apply', '-f', '-');
    expect(bad.stderr).toContain('handler: Invalid value: "Not_A_Label": a lowercase RFC 1123 label must consist of lower case alphanumeric characters');
    const changed = await api.kubectl('patch', 'runtimeclass', 'sandboxed', '--type=merge', '-p', '{"handler":"runc"}');
    expect(changed.stderr).toContain('handler: Invalid value: "runc": field is immutable');
    const negative = await api.kubectlWithInput(RC.replace('name: sandboxed', 'name: neg').replace('cpu: 250m', 'cpu: -1'), 'apply', '-f', '-');
    expect(negative.stderr).toContain('overhead.podFixed[cpu]: Invalid value: "-1": must be greater than or equal to 0');
  });

  it('admission: a pod of the class gets its overhead, node selector and tolerations; an unknown class or a stray overhead is refused', async () => {
    expect((await api.kubectlWithInput(pod('p1', { runtimeClassName: 'sandboxed', nodeSelector: { disk: 'ssd' } }), 'create', '-f', '-')).code).toBe(0);
    const p1 = JSON.parse((await api.kubectl('get', 'pod', 'p1', '-o', 'json')).stdout);
    expect(p1.spec.overhead).toEqual({ cpu: '250m', memory: '120Mi' });
    expect(p1.spec.nodeSelector).toEqual({ disk: 'ssd', sandbox: 'true' });
    expect(p1.spec.tolerations).toContainEqual({ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' });

    const conflict = await api.kubectlWithInput(pod('p2', { runtimeClassName: 'sandboxed', nodeSelector: { sandbox: 'false' } }), 'create', '-f', '-');
    expect(conflict.stderr).toContain('pods "p2" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = true; pod.spec.nodeSelector[sandbox] = false');
    const unknown = await api.kubectlWithInput(pod('p3', { runtimeClassName: 'nope' }), 'create', '-f', '-');
    expect(unknown.stderr).toContain('pods "p3" is forbidden: pod rejected: RuntimeClass "nope" not found');
    const mismatch = await api.kubectlWithInput(pod('p4', { runtimeClassName: 'sandboxed', overhead: { cpu: '1' } }), 'create', '-f', '-');
    expect(mismatch.stderr).toContain("pods \"p4\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead");
    const stray = await api.kubectlWithInput(pod('p5', { overhead: { cpu: '1' } }), 'create', '-f', '-');
    expect(stray.stderr).toContain('pods "p5" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  });

  it('@kubernetes/client-node reads it typed', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(api.kubeconfig);
    const list = await kc.makeApiClient(k8s.NodeV1Api).listRuntimeClass();
    expect(list.items.map((rc) => [rc.metadata?.name, rc.handler, rc.overhead?.podFixed?.cpu])).toEqual([['sandboxed', 'gvisor', '250m']]);
  });
});
