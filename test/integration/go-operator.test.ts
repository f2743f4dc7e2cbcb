// A Go operator built on controller-runtime (test/go-operator, v0.14 on client-go 0.26) against `mini-kube up`: it
// elects itself on a Lease, watches its custom resource with a full informer, its Deployments through the protobuf
// client and its ConfigMaps through a metadata-only informer, applies server-side, patches status, records events
// and serves the mutating, validating and conversion webhooks of its kind; a second replica takes over when the
// first stops.
// Opt-in: MINI_KUBE_GO_OPERATOR=<the built operator>, and MINI_KUBE_GO_ROUNDTRIP=<test/go-operator/roundtrip built>
// for client-go's round trip of every built-in kind (see test/go-operator/README.md: building them needs a Go
// toolchain and the modules, which CI does not have).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCa, issueCertificate } from '../../pkg/pki/index.js';
import { freePort } from '../bench/processes.js';
import { kubectl } from '../support/apiserver.js';
import { eventually } from './kubelet-support.js';
import { startUp, stopUp } from './kubelet-up-support.js';

const OPERATOR = process.env.MINI_KUBE_GO_OPERATOR;
/** test/go-operator/roundtrip, built: client-go's JSON/protobuf reads and unchanged writes of every built-in kind. */
const ROUNDTRIP = process.env.MINI_KUBE_GO_ROUNDTRIP;

/** Objects of many kinds, as users write them (JSON through kubectl): what the round trip reads and writes back. */
const WORKLOADS = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers:
      - name: db
        image: postgres
        ports: [{containerPort: 5432, name: pg}]
        env: [{name: POD, valueFrom: {fieldRef: {fieldPath: metadata.name}}}]
        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {memory: 128Mi}}
        readinessProbe: {tcpSocket: {port: 5432}, periodSeconds: 5}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec:
      tolerations: [{operator: Exists}]
      containers: [{name: a, image: busybox, command: [sleep, "1000"]}]
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: tick}
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: t, image: busybox, command: [date]}]
---
apiVersion: v1
kind: Service
metadata: {name: db}
spec:
  selector: {app: db}
  ports: [{port: 80, targetPort: pg, name: http}]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: db}
spec:
  rules: [{host: a.example, http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: db, port: {number: 80}}}}]}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db}
spec: {minAvailable: 1, selector: {matchLabels: {app: db}}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: db}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: StatefulSet, name: db}
  maxReplicas: 3
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec: {limits: [{type: Container, default: {cpu: 500m}, defaultRequest: {cpu: 100m}}]}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: rq}
spec: {hard: {pods: "50"}}
`;

/** Widget: v1 stored, v2 served too (spec.size for spec.replicas), converted by the operator's webhook. */
const crd = (port: number, caBundle: string): string => {
  const version = (name: string, replicas: string, storage: boolean): string => `  - name: ${name}
    served: true
    storage: ${storage}
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [${replicas}, image]
            properties:
              ${replicas}: {type: integer, minimum: 0}
              image: {type: string}
              message: {type: string}
          status:
            type: object
            properties:
              phase: {type: string}
              readyReplicas: {type: integer}
`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.demo.mini-kube.dev}
spec:
  group: demo.mini-kube.dev
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {url: "https://127.0.0.1:${port}/convert", caBundle: "${caBundle}"}
  versions:
${version('v1', 'replicas', true)}${version('v2', 'size', false)}`;
};

const webhooks = (port: number, caBundle: string): string => ['Mutating', 'Validating'].map((kind) => `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}WebhookConfiguration
metadata: {name: widget-${kind.toLowerCase()}}
webhooks:
- name: ${kind.toLowerCase()}.widgets.demo.mini-kube.dev
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {url: "https://127.0.0.1:${port}/${kind === 'Mutating' ? 'mutate' : 'validate'}-widget", caBundle: "${caBundle}"}
  rules: [{apiGroups: [demo.mini-kube.dev], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [widgets]}]
`).join('---\n');

const widget = (name: string, spec: string): string => `apiVersion: demo.mini-kube.dev/v1
kind: Widget
metadata: {name: ${name}, namespace: default}
spec: ${spec}
`;

interface Operator { child: ChildProcess; out: () => string; stop(): Promise<void> }

describe.skipIf(!OPERATOR)('a controller-runtime operator (Go) against mini-kube up', () => {
  let kc = '';
  let certDir = '';
  let webhookPort = 0;
  const operators: Operator[] = [];

  const startOperator = async (port: number): Promise<Operator> => {
    const child = spawn(OPERATOR!, ['--webhook-port', String(port), '--cert-dir', certDir], { env: { ...process.env, KUBECONFIG: kc }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr!.resume();
    const exited = new Promise((r) => child.once('exit', r));
    const op: Operator = {
      child, out: () => out,
      async stop() { if (child.exitCode === null && child.signalCode === null) { child.kill('SIGTERM'); await exited; } },
    };
    operators.push(op);
    return op;
  };
  const get = async (...args: string[]): Promise<string> => {
    const r = await kubectl(kc, ['get', ...args]);
    return r.code === 0 ? r.stdout : '';
  };

  beforeAll(async () => {
    kc = await startUp('--runtime', 'fake', '--dns=false', '--proxy=false', '--metrics-server=false');
    certDir = await mkdtemp(join(tmpdir(), 'go-operator-'));
    const ca = await createCa('widget-webhook-ca', 1);
    const leaf = await issueCertificate(ca, { subject: { commonName: '127.0.0.1' }, usage: 'server', sans: ['127.0.0.1'], days: 1 });
    await writeFile(join(certDir, 'tls.crt'), leaf.certPem);
    await writeFile(join(certDir, 'tls.key'), leaf.keyPem);
    webhookPort = await freePort();
    const caBundle = Buffer.from(ca.cert.toString('pem')).toString('base64');
    expect((await kubectl(kc, ['apply', '-f', '-'], crd(webhookPort, caBundle) + '---\n' + webhooks(webhookPort, caBundle))).code).toBe(0);
  }, 60_000);
  afterAll(async () => {
    for (const op of operators) await op.stop();
    await stopUp();
    if (certDir) await rm(certDir, { recursive: true, force: true });
  });

  it('elects itself, reconciles a Widget into a Deployment and a ConfigMap, and reports status', async () => {
    const op = await startOperator(webhookPort);
    await eventually(async () => op.out().includes('ELECTED'), 30_000, 'the operator elected');
    expect(await get('lease', 'widget-operator', '-o', 'jsonpath={.spec.leaseDurationSeconds}')).toBe('15');
    expect((await kubectl(kc, ['apply', '-f', '-'], widget('w1', '{replicas: 2, image: nginx}'))).code).toBe(0);
    // the mutating webhook set the message; the status reaches the Deployment's ready replicas
    expect(await get('widget', 'w1', '-o', 'jsonpath={.spec.message}')).toBe('hello from the webhook');
    await eventually(async () => (await get('widget', 'w1', '-o', 'jsonpath={.status.phase} {.status.readyReplicas}')) === 'Reconciled 2', 60_000, 'status Reconciled 2');
    const owner = await get('deploy', 'w1', '-o', 'jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}');
    expect(owner).toBe('Widget/w1');
    // server-side applied, with the operator's Apply entry
    expect(await get('cm', 'w1-config', '-o', 'jsonpath={.data.message} {.metadata.managedFields[0].manager} {.metadata.managedFields[0].operation}')).toBe('hello from the webhook widget-operator Apply');
    expect(await get('events', '--field-selector', 'involvedObject.kind=Widget,involvedObject.name=w1', '-o', 'jsonpath={.items[0].reason}')).toBe('Reconciled');
  }, 120_000);

  it('settles: a no-op update of its Deployment writes nothing, so the reconcile loop goes quiet', async () => {
    const op = operators[0]!;
    const rv = await get('deploy', 'w1', '-o', 'jsonpath={.metadata.resourceVersion}');
    const reconciles = op.out().split('\n').length;
    // another reconcile (a new label on the widget) updates nothing but the widget itself
    expect((await kubectl(kc, ['label', 'widget', 'w1', 'touched=yes'])).code).toBe(0);
    await eventually(async () => op.out().split('\n').length > reconciles, 30_000, 'a reconcile after the label');
    expect(await get('deploy', 'w1', '-o', 'jsonpath={.metadata.resourceVersion}')).toBe(rv);
  }, 60_000);

  it('is refused by its validating webhook, and puts back what its metadata-only informer saw deleted', async () => {
    const denied = await kubectl(kc, ['apply', '-f', '-'], widget('w2', '{replicas: 20, image: nginx}'));
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('admission webhook "validating.widgets.demo.mini-kube.dev" denied the request: spec.replicas 20 is more than 10');
    const uid = await get('cm', 'w1-config', '-o', 'jsonpath={.metadata.uid}');
    expect((await kubectl(kc, ['delete', 'cm', 'w1-config'])).code).toBe(0);
    await eventually(async () => { const now = await get('cm', 'w1-config', '-o', 'jsonpath={.metadata.uid}'); return now !== '' && now !== uid; }, 30_000, 'the ConfigMap applied again');
  }, 60_000);

  it('converts between its versions: a Widget written as v2 is stored as v1, admitted and reconciled as v1, read as v2', async () => {
    const w = `apiVersion: demo.mini-kube.dev/v2
kind: Widget
metadata: {name: w4, namespace: default}
spec: {size: 1, image: nginx}
`;
    const created = await kubectl(kc, ['apply', '-f', '-'], w);
    expect(created.stderr).toBe('');
    // the webhooks match v1 only: the v2 request reached them converted, and the defaulted message came back
    expect(await get('widgets.v1.demo.mini-kube.dev', 'w4', '-o', 'jsonpath={.spec.replicas} {.spec.message}')).toBe('1 hello from the webhook');
    await eventually(async () => (await get('widgets.v2.demo.mini-kube.dev', 'w4', '-o', 'jsonpath={.status.phase} {.status.readyReplicas}')) === 'Reconciled 1', 60_000, 'w4 Reconciled 1 read as v2');
    expect(await get('widgets.v2.demo.mini-kube.dev', 'w4', '-o', 'jsonpath={.apiVersion} {.spec.size}')).toBe('demo.mini-kube.dev/v2 1');
    expect(await get('deploy', 'w4', '-o', 'jsonpath={.spec.replicas}')).toBe('1');
    const denied = await kubectl(kc, ['apply', '-f', '-'], w.replace('name: w4', 'name: w5').replace('size: 1', 'size: 11'));
    expect(denied.stderr).toContain('denied the request: spec.replicas 11 is more than 10');
  }, 90_000);

  it.skipIf(!ROUNDTRIP)('reads every built-in kind alike in JSON and protobuf through client-go, and writes each back unchanged', async () => {
    expect((await kubectl(kc, ['apply', '-f', '-'], WORKLOADS)).code).toBe(0);
    await eventually(async () => (await get('pods', '-l', 'app=db', '-o', 'name')) !== '', 30_000, 'the StatefulSet\'s pod');
    const out = await new Promise<string>((resolve) => {
      const child = spawn(ROUNDTRIP!, [], { env: { ...process.env, KUBECONFIG: kc }, stdio: ['ignore', 'pipe', 'ignore'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => { text += d.toString(); });
      child.once('exit', () => resolve(text));
    });
    expect(out.trim().split('\n')).toEqual(['mismatches: 0']);
  }, 120_000);

  it('lets its owned objects go with their Widgets, and hands over to a second replica once the first stops', async () => {
    // (while the first replica, whose webhook server the configurations name, still converts)
    expect((await kubectl(kc, ['delete', 'widget', 'w1', 'w4'])).code).toBe(0);
    await eventually(async () => (await get('deploy', '-o', 'name')) === '' && !(await get('cm', '-o', 'name')).includes('-config'), 30_000, 'the Deployments and ConfigMaps collected');
    const second = await startOperator(await freePort());
    await operators[0]!.stop();
    await eventually(async () => second.out().includes('ELECTED'), 40_000, 'the second replica elected');
    expect(await get('lease', 'widget-operator', '-o', 'jsonpath={.spec.leaseTransitions}')).toBe('1');
  }, 90_000);
});
