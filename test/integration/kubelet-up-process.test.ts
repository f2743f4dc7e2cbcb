// `mini-kube up --nodes 3` (process runtime): one kubelet process per node with its own certificate; the seeds'
// scenario runs real nginx processes and `kubectl logs`, `kubectl exec` and the Python client's exec reach them through
// the apiserver's proxy; with pod sandboxes, a NodePort Service reaches them through up's service proxy and its name
// resolves in the pods.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxesUnavailable } from '../../pkg/kubelet/sandbox/probe.js';
import { kubectl } from '../support/apiserver.js';
import { hasPythonClient, runPython } from '../support/python-client.js';
import { eventually } from './kubelet-support.js';
import { main, seedsScenario, startUp, stopUp, upLogTail } from './kubelet-up-support.js';

afterEach(stopUp);

// The Python client's documented basic exec, again and again: before kubernetes-client/python#2646 it reads a frame,
// then waits on its socket, and hangs when the close frame came in the status frame's TLS record.
const PYTHON_EXECS = `
import sys
from kubernetes import client, config
from kubernetes.stream import stream
config.load_kube_config(sys.argv[1])
v1 = client.CoreV1Api()
for i in range(int(sys.argv[3])):
    print(stream(v1.connect_get_namespaced_pod_exec, sys.argv[2], 'default', container='nginx', command=['echo', 'hi'], stderr=True, stdin=False, stdout=True, tty=False), end='')
`;

describe.skipIf(!existsSync(main))('mini-kube up with the process runtime (compiled)', () => {
  it('3 kubelet processes Ready; the deployment of 3 runs; kubectl logs and exec answer', async () => {
    const kc = await startUp('--nodes', '3');
    if (!(await sandboxesUnavailable())) {
      // ready means the cluster DNS can be reached: kube-dns's EndpointSlice is there already
      const dnsSlice = await kubectl(kc, ['get', 'endpointslices', '-n', 'kube-system', '-l', 'kubernetes.io/service-name=kube-dns', '-o', 'jsonpath={.items[*].endpoints[*].addresses[0]}']);
      expect(dnsSlice.stdout).toBe('127.0.0.1');
    }
    await seedsScenario(kc);
    const pods = await kubectl(kc, ['get', 'pods', '-l', 'app=web', '-o', 'name']);
    const first = pods.stdout.trim().split('\n')[0]!;
    // node-ipam gave each node a /24 of 10.244.0.0/16; with sandboxes, each pod's address is in its node's range
    const ranges = Object.fromEntries((await kubectl(kc, ['get', 'nodes', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.podCIDR}{"\\n"}{end}'])).stdout.trim().split('\n').map((l) => l.split('=')));
    expect(new Set(Object.values(ranges)).size).toBe(3);
    for (const r of Object.values(ranges)) expect(r).toMatch(/^10\.244\.\d+\.0\/24$/);
    if (!(await sandboxesUnavailable())) {
      const placed = (await kubectl(kc, ['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.spec.nodeName}={.status.podIP}{"\\n"}{end}'])).stdout.trim().split('\n');
      for (const [node, ip] of placed.map((l) => l.split('='))) expect(ip!.split('.').slice(0, 3).join('.')).toBe(ranges[node!]!.split('.').slice(0, 3).join('.'));
    }
    const logs = await eventually(async () => {
      const r = await kubectl(kc, ['logs', first]);
      return r.stdout.includes('listening') ? r.stdout : undefined;
    }, 10_000, 'nginx log');
    expect(logs).toMatch(/^nginx: listening on port \d+\n/);
    // kubectl exec runs a real command in the container's environment, through the apiserver to that node's kubelet.
    const exec = await kubectl(kc, ['exec', first, '--', 'sh', '-c', 'echo "$HOSTNAME"; exit 2']);
    expect(exec).toMatchObject({ code: 2, stdout: `${first.replace(/^pod\//, '')}\n` });
    if (hasPythonClient) expect(await runPython(PYTHON_EXECS, [kc, first.replace(/^pod\//, ''), '10'], 20_000)).toBe('hi\n'.repeat(10));
    if (!(await sandboxesUnavailable())) {
      // up's service proxy: the NodePort on the host and the ClusterIP reach the pods' nginx on port 80
      expect((await kubectl(kc, ['expose', 'deployment', 'web', '--type=NodePort', '--port=80'])).code).toBe(0);
      const [clusterIp, nodePort] = (await kubectl(kc, ['get', 'svc', 'web', '-o', 'jsonpath={.spec.clusterIP} {.spec.ports[0].nodePort}'])).stdout.split(' ');
      for (const url of [`http://127.0.0.1:${nodePort!}/`, `http://${clusterIp!}/`]) {
        const page = await eventually(async () => (await fetch(url, { signal: AbortSignal.timeout(2000) }).then((r) => r.text(), () => '')) || undefined, 15_000, url);
        expect(page).toContain('Welcome to nginx!');
      }
      // up's cluster DNS, reached by the pods through the kube-dns ClusterIP: the service's name, with the search path
      let lookup = '';
      const resolved = await eventually(async () => {
        const r = await kubectl(kc, ['exec', first, '--', 'getent', 'hosts', 'web']);
        lookup = `exit ${r.code}: ${r.stderr}`;
        return r.code === 0 ? r.stdout : undefined;
      }, 45_000, 'getent hosts web').catch(async (e: Error) => { // a lookup the loaded DNS server misses costs the resolver's 5-s timeouts
        // what it takes to tell a resolver, proxy or DNS server fault apart (this step failed in loaded local runs)
        const conf = await kubectl(kc, ['exec', first, '--', 'cat', '/etc/resolv.conf']);
        throw new Error(`${e.message}; last lookup ${lookup}; resolv.conf: ${conf.stdout}; proxy.log: ${await upLogTail('proxy')}; dns.log: ${await upLogTail('dns')}`);
      });
      expect(resolved.trim().split(/\s+/)).toEqual([clusterIp, 'web.default.svc.cluster.local']);
      // Kubernetes' "Debugging DNS Resolution" step: nslookup (the host's, else the one on every container's PATH)
      const kubernetesIp = (await kubectl(kc, ['get', 'svc', 'kubernetes', '-o', 'jsonpath={.spec.clusterIP}'])).stdout;
      const ns = await kubectl(kc, ['exec', first, '--', 'nslookup', 'kubernetes.default']);
      expect(ns, ns.stderr).toMatchObject({ code: 0 });
      expect(ns.stdout).toContain(`Name:\tkubernetes.default.svc.cluster.local\nAddress: ${kubernetesIp}\n`);
      expect((await kubectl(kc, ['exec', first, '--', 'nslookup', 'nosuch'])).code).toBe(1);
      // an in-cluster client in a pod: its service account token at the mountPath, the apiserver at KUBERNETES_SERVICE_HOST
      const whoami = await kubectl(kc, ['exec', first, '--', 'kubectl', 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
      expect(whoami, whoami.stderr).toMatchObject({ code: 0, stdout: 'system:serviceaccount:default:default' });
    }
    // up's metrics-server answers kubectl top once it has scraped every kubelet twice (every 15 s); until then a node
    // it has not scraped twice shows <unknown>, as kubectl prints a node without metrics
    expect((await kubectl(kc, ['get', 'apiservice', 'v1beta1.metrics.k8s.io', '--no-headers'])).stdout).toMatch(/kube-system\/metrics-server\s+True\s/);
    const row = /^node-[123]\s+\d+m\s+\d+%\s+\d+Mi\s+\d+%/;
    let last = '';
    await eventually(async () => {
      const r = await kubectl(kc, ['top', 'node', '--no-headers']);
      last = r.stdout;
      const lines = r.stdout.trim().split('\n');
      return r.code === 0 && lines.length === 3 && lines.every((l) => row.test(l));
    }, 30_000, 'kubectl top node with the metrics of every node').catch((err: Error) => { throw new Error(`${err.message}; last output:\n${last}`); });
  }, 120_000);
});
