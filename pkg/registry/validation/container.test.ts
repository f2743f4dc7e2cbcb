import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateContainers } from './container.js';

/** A container as defaulting leaves it. */
const c = (over: KubeObject = {}): KubeObject => ({ name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', ...over });
const volumes = new Map<string, KubeObject>([['data', { name: 'data', emptyDir: {} }]]);
const errors = (spec: KubeObject, path = 'spec'): string[] => validateContainers({ terminationGracePeriodSeconds: 30, ...spec }, path, volumes).map(causeToString);

describe('validateContainers', () => {
  it('accepts a plain pod and a full-featured one', () => {
    expect(errors({ containers: [c()] })).toEqual([]);
    expect(errors({
      initContainers: [c({ name: 'init' }), c({ name: 'sidecar', restartPolicy: 'Always', readinessProbe: { exec: { command: ['true'] }, periodSeconds: 10, successThreshold: 3 } })],
      containers: [c({
        ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }, { containerPort: 53, hostPort: 53, protocol: 'UDP' }],
        env: [{ name: 'A', value: 'x' }, { name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
        envFrom: [{ configMapRef: { name: 'cm' }, prefix: 'P_' }],
        volumeMounts: [{ name: 'data', mountPath: '/data', subPath: 'a/b' }],
        resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } },
        livenessProbe: { httpGet: { path: '/', port: 'http', scheme: 'HTTP' }, successThreshold: 1 },
        lifecycle: { preStop: { sleep: { seconds: 5 } } },
        securityContext: { runAsUser: 1000, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
      })],
    })).toEqual([]);
  });

  it('requires a DNS-1123 label name and an image, and known policies', () => {
    expect(errors({ containers: [c({ name: 'Bad_Name', image: '', imagePullPolicy: 'Sometimes', terminationMessagePolicy: 'Never' })] })).toEqual([
      'spec.containers[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
      'spec.containers[0].image: Required value',
      'spec.containers[0].terminationMessagePolicy: Unsupported value: "Never": supported values: "File", "FallbackToLogsOnError"',
      'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    ]);
  });

  it('leaves a missing name to the schema check, but not one sent as something else', () => {
    expect(errors({ containers: [c({ name: undefined })] })).toEqual([]);
  });

  it('wants names unique across containers, init containers and ephemeral containers', () => {
    expect(errors({
      containers: [c({ name: 'a' }), c({ name: 'a' })],
      initContainers: [c({ name: 'a' }), c({ name: 'b' }), c({ name: 'b' })],
      ephemeralContainers: [c({ name: 'b' }), c({ name: 'e' }), c({ name: 'e' })],
    })).toEqual([
      'spec.containers[1].name: Duplicate value: "a"',
      'spec.initContainers[0].name: Duplicate value: "a"',
      'spec.initContainers[2].name: Duplicate value: "b"',
      'spec.ephemeralContainers[0].name: Duplicate value: "b"',
      'spec.ephemeralContainers[2].name: Duplicate value: "e"',
    ]);
  });

  it('takes restartPolicy Always on init containers only, and probes and lifecycle only on sidecars', () => {
    const probe = { exec: { command: ['true'] }, successThreshold: 1 };
    expect(errors({
      containers: [c({ restartPolicy: 'Always' })],
      initContainers: [
        c({ name: 'i1', restartPolicy: 'OnFailure', livenessProbe: probe, lifecycle: { postStart: { exec: { command: ['x'] } } } }),
        c({ name: 'i2', readinessProbe: probe, startupProbe: probe }),
        c({ name: 'i3', restartPolicy: 'Always', livenessProbe: { ...probe, successThreshold: 2 } }),
      ],
    })).toEqual([
      'spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers',
      'spec.initContainers[0].restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[1].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[1].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[2].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    ]);
  });

  it('refuses host ports used twice by the containers, and by one init container', () => {
    const port = (containerPort: number, hostPort: number, protocol = 'TCP') => ({ containerPort, hostPort, protocol });
    expect(errors({
      containers: [c({ name: 'a', ports: [port(80, 8080)] }), c({ name: 'b', ports: [port(81, 8080), port(82, 8080, 'UDP')] })],
      initContainers: [c({ name: 'i', ports: [port(80, 8080)] }), c({ name: 'j', ports: [port(1, 9090), port(2, 9090)] })],
    })).toEqual([
      'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"',
      // upstream checks each init container alone, and reports it at index 0
      'spec.initContainers[0].ports[1].hostPort: Duplicate value: "TCP//9090"',
    ]);
  });

  it('forbids ports, resources, probes and lifecycle on ephemeral containers, and their subPaths', () => {
    expect(errors({
      containers: [c({ name: 'main' })],
      ephemeralContainers: [c({
        name: 'debug', targetContainerName: 'nope', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: { limits: { cpu: '1' } },
        readinessProbe: { exec: { command: ['true'] } }, lifecycle: { preStop: { exec: { command: ['true'] } } },
        volumeMounts: [{ name: 'data', mountPath: '/d', subPath: 'x' }],
      }), c({ name: 'img', image: ' busybox', resources: {} })],
    })).toEqual([
      'spec.ephemeralContainers[0].targetContainerName: Not found: "nope"',
      'spec.ephemeralContainers[0].ports: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].resources: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].readinessProbe: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].lifecycle: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[0].volumeMounts[0].subPath: Forbidden: cannot be set for an Ephemeral Container',
      'spec.ephemeralContainers[1].image: Invalid value: " busybox": must not have leading or trailing whitespace',
    ]);
    expect(errors({ containers: [c()], ephemeralContainers: [c({ name: 'e', image: undefined })] })).toEqual(['spec.ephemeralContainers[0].image: Required value']);
  });

  it("checks a pod's images for surrounding spaces, not a template's", () => {
    expect(errors({ containers: [c({ image: 'nginx ' })] })).toEqual(['spec.containers[0].image: Invalid value: "nginx ": must not have leading or trailing whitespace']);
    expect(errors({ containers: [c({ image: ' ' })] }, 'spec.template.spec')).toEqual([]);
  });

  it('names paths after the pod spec it is given', () => {
    expect(errors({ containers: [c({ image: '' })] }, 'spec.jobTemplate.spec.template.spec')).toEqual(['spec.jobTemplate.spec.template.spec.containers[0].image: Required value']);
  });

  it('never throws on odd shapes', () => {
    const odd: unknown[] = [null, 1, 'x', [], { ports: 'x', env: {}, envFrom: 3, volumeMounts: [null, 1], resources: [], securityContext: 'x', livenessProbe: 1, lifecycle: [] }];
    for (const o of odd) {
      expect(() => validateContainers({ containers: [o], initContainers: [o], ephemeralContainers: [o] }, 'spec', volumes)).not.toThrow();
      expect(() => validateContainers({ containers: o, initContainers: o } as KubeObject, 'spec', volumes)).not.toThrow();
    }
  });
});
