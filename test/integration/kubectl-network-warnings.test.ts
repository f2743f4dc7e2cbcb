// The real kubectl prints the apiserver's Service warnings (upstream 1.32's pkg/api/service/warnings.go) on a
// create and an update, and the Ingress's for its deprecated class annotation on a create only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory' });
});
afterAll(async () => {
  await s?.close();
});

const SERVICE = `apiVersion: v1
kind: Service
metadata:
  name: web
  annotations: {service.kubernetes.io/topology-aware-hints: auto}
spec:
  ports: [{port: 80}]
  externalIPs: [192.0.2.010]
  externalName: web.example.com
`;

const INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
  annotations: {kubernetes.io/ingress.class: nginx}
spec:
  defaultBackend: {service: {name: web, port: {number: 80}}}
`;

describe('Service and Ingress warnings through kubectl', () => {
  it('prints a Service\'s on create and on update', async () => {
    const warnings = [
      'Warning: annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
      'Warning: spec.externalIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("192.0.2.010"): IPv4 field has octet with leading zero',
      'Warning: spec.externalName is ignored when spec.type is not "ExternalName"',
      '',
    ].join('\n');
    const created = await s.kubectlWithInput(SERVICE, 'create', '-f', '-');
    expect([created.code, created.stdout, created.stderr]).toEqual([0, 'service/web created\n', warnings]);
    const labeled = await s.kubectl('label', 'service', 'web', 'tier=front');
    expect([labeled.code, labeled.stderr]).toEqual([0, warnings]);
    const plain = await s.kubectl('create', 'service', 'clusterip', 'plain', '--tcp=80:80');
    expect([plain.code, plain.stderr]).toEqual([0, '']);
  });

  it('prints an Ingress\'s class annotation warning on create, not on update nor with spec.ingressClassName', async () => {
    const created = await s.kubectlWithInput(INGRESS, 'create', '-f', '-');
    expect([created.code, created.stderr]).toEqual([0, 'Warning: annotation "kubernetes.io/ingress.class" is deprecated, please use \'spec.ingressClassName\' instead\n']);
    const labeled = await s.kubectl('label', 'ingress', 'web', 'tier=front');
    expect([labeled.code, labeled.stderr]).toEqual([0, '']);
    const named = await s.kubectlWithInput(INGRESS.replace('name: web\n', 'name: named\n').replace('spec:\n', 'spec:\n  ingressClassName: nginx\n'), 'create', '-f', '-');
    expect([named.code, named.stderr]).toEqual([0, '']);
  });
});
