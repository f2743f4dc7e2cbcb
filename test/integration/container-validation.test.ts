// Containers are validated as kube-apiserver 1.32 validates them (pkg/registry/validation/container.ts): the real
// kubectl shows the same refusals, at the same paths, for a pod and for a workload's pod template, and takes a pod
// that uses every container feature. Only container errors are asserted (the pod's own rules are another file's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
});
afterAll(async () => { await s?.close(); });

const pod = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
const create = (manifest: string, ...args: string[]) => s.kubectlWithInput(manifest, 'create', '-f', '-', ...args);

/** kubectl's rendering of a 422 with several causes: one "* cause" line each. */
const expectCauses = (stderr: string, kind: string, name: string, causes: string[]): void => {
  expect(stderr).toContain(`The ${kind} "${name}" is invalid: \n`);
  for (const c of causes) expect(stderr).toContain(`* ${c}\n`);
};

describe('container validation', () => {
  it('refuses bad names, images, ports, policies and resources with upstream\'s messages', async () => {
    const r = await create(pod('bad', {
      containers: [{
        name: 'Bad_Name',
        imagePullPolicy: 'Sometimes',
        ports: [{ containerPort: 99999, protocol: 'XTP' }, { containerPort: 80, name: 'http' }, { containerPort: 81, name: 'http' }],
        resources: { limits: { cpu: '1', foo: '1' }, requests: { cpu: '2', memory: '-1' } },
        env: [{ name: 'A=B', value: 'x' }, { name: 'FROM', valueFrom: {} }],
      }],
    }), '--dry-run=server');
    expect(r.code).not.toBe(0);
    expectCauses(r.stderr, 'Pod', 'bad', [
      'spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'spec.containers[0].image: Required value',
      'spec.containers[0].ports[0].containerPort: Invalid value: 99999: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[0].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[0].ports[2].name: Duplicate value: "http"',
      'spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
      'spec.containers[0].env[1].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
      'spec.containers[0].resources.limits[foo]: Invalid value: foo: must be a standard resource type or fully qualified',
      'spec.containers[0].resources.limits[foo]: Invalid value: foo: must be a standard resource for containers',
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
    ]);
  });

  it('refuses bad probes, lifecycle hooks, mounts and init containers', async () => {
    const r = await create(pod('probes', {
      initContainers: [{ name: 'init', image: 'busybox', restartPolicy: 'OnFailure', livenessProbe: { exec: { command: ['true'] } } }],
      containers: [{
        name: 'main', image: 'nginx',
        livenessProbe: { periodSeconds: -1, successThreshold: 2 },
        readinessProbe: { httpGet: { port: 0, path: '/' }, tcpSocket: { port: 80 } },
        lifecycle: { preStop: { sleep: { seconds: 0 } } },
        volumeMounts: [{ name: 'missing', mountPath: '/data' }, { name: 'missing', mountPath: '/data', subPath: '../x' }],
      }],
    }), '--dry-run=server');
    expect(r.code).not.toBe(0);
    expectCauses(r.stderr, 'Pod', 'probes', [
      'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
      'spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique',
      'spec.containers[0].volumeMounts.subPath: Invalid value: "../x": must not contain \'..\'',
      'spec.containers[0].lifecycle.preStop.sleep: Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.',
      'spec.containers[0].livenessProbe: Required value: must specify a handler type',
      'spec.containers[0].livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
      'spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
      'spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
    ]);
  });

  it("refuses a Deployment whose template's container is bad, at the template's path", async () => {
    const d = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' } },
        template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 99999 }] }] } },
      },
    };
    const r = await create(JSON.stringify(d), '--dry-run=server');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('The Deployment "d" is invalid: spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 99999: must be between 1 and 65535, inclusive');
  });

  it('takes a pod that uses every container feature, as defaulting leaves it', async () => {
    const full = pod('full', {
      volumes: [{ name: 'data', emptyDir: {} }],
      initContainers: [
        { name: 'setup', image: 'busybox', command: ['true'], volumeMounts: [{ name: 'data', mountPath: '/data' }] },
        { name: 'sidecar', image: 'busybox', restartPolicy: 'Always', readinessProbe: { exec: { command: ['true'] }, successThreshold: 2 } },
      ],
      containers: [{
        name: 'app', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent',
        ports: [{ name: 'http', containerPort: 80 }, { containerPort: 53, protocol: 'UDP', hostPort: 5353 }],
        env: [
          { name: 'PLAIN', value: 'x' },
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'APP_LABEL', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } },
          { name: 'FROM_SECRET', valueFrom: { secretKeyRef: { name: 'creds', key: 'password', optional: true } } },
        ],
        envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'cfg', optional: true } }],
        resources: { limits: { cpu: '1', memory: '512Mi', 'example.com/dongle': '1' }, requests: { cpu: '250m', memory: '256Mi', 'example.com/dongle': '1' } },
        volumeMounts: [{ name: 'data', mountPath: '/usr/share/nginx/html', subPath: 'html', readOnly: true, recursiveReadOnly: 'IfPossible' }],
        livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5, terminationGracePeriodSeconds: 10 },
        readinessProbe: { tcpSocket: { port: 80 } },
        startupProbe: { grpc: { port: 9000 }, failureThreshold: 30 },
        lifecycle: { postStart: { exec: { command: ['true'] } }, preStop: { sleep: { seconds: 5 } } },
        securityContext: { runAsUser: 1000, runAsGroup: 1000, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } },
      }],
    });
    const dry = await create(full, '--dry-run=server');
    expect(dry.stderr).toBe('');
    expect(dry.stdout).toContain('pod/full created (server dry run)');
    const made = await create(full);
    expect(made.stderr).toBe('');
    expect(made.stdout).toContain('pod/full created');
  });
});
