// Ingress spec rules, each with upstream's path and message.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateIngressCreate, validateIngressSpec, validateIngressUpdate } from './ingresses.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const ing = (spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'i', namespace: 'd', ...(annotations ? { annotations } : {}) }, spec });
const svc = (name = 'web', port: Record<string, unknown> = { number: 80 }) => ({ service: { name, port } });
const rule = (path: Record<string, unknown>, host?: string) => ({ ...(host ? { host } : {}), http: { paths: [path] } });

describe('Ingress', () => {
  it('takes what kubectl create ingress makes', () => {
    expect(validateIngressSpec(ing({
      ingressClassName: 'nginx',
      rules: [rule({ path: '/', pathType: 'Exact', backend: svc('svc1', { number: 8080 }) }, 'foo.com'), rule({ path: '/x', pathType: 'Prefix', backend: svc('s', { name: 'http' }) }, '*.foo.com')],
      tls: [{ hosts: ['foo.com', '*.bar.com'], secretName: 'tls' }],
    }))).toEqual([]);
    expect(validateIngressSpec(ing({ defaultBackend: svc() }))).toEqual([]);
    expect(validateIngressSpec(ing({ rules: [rule({ pathType: 'ImplementationSpecific', backend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'b' } } })] }))).toEqual([]);
  });

  it('wants rules or a default backend', () => {
    expect(msgs(validateIngressSpec(ing({})))).toEqual(['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']);
    expect(msgs(validateIngressSpec(ing({ rules: [] })))).toEqual(['spec: Invalid value: []networking.IngressRule{}: either `defaultBackend` or `rules` must be specified']);
  });

  it('checks the paths', () => {
    expect(msgs(validateIngressSpec(ing({ rules: [rule({ path: '/', pathType: 'Foo', backend: svc() })] }))))
      .toEqual(['spec.rules[0].http.paths[0].pathType: Unsupported value: "Foo": supported values: "Exact", "ImplementationSpecific", "Prefix"']);
    expect(msgs(validateIngressSpec(ing({ rules: [rule({ path: '/', backend: svc() })] }))))
      .toEqual(['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']);
    expect(msgs(validateIngressSpec(ing({ rules: [rule({ path: 'a//b/..', pathType: 'Prefix', backend: svc() })] })))).toEqual([
      'spec.rules[0].http.paths[0].path: Invalid value: "a//b/..": must be an absolute path',
      'spec.rules[0].http.paths[0].path: Invalid value: "a//b/..": must not contain \'//\'',
      'spec.rules[0].http.paths[0].path: Invalid value: "a//b/..": cannot end with \'/..\'',
    ]);
    expect(msgs(validateIngressSpec(ing({ rules: [rule({ path: 'x', pathType: 'ImplementationSpecific', backend: svc() })] }))))
      .toEqual(['spec.rules[0].http.paths[0].path: Invalid value: "x": must be an absolute path']);
    expect(msgs(validateIngressSpec(ing({ rules: [{ http: { paths: [] } }] })))).toEqual(['spec.rules[0].http.paths: Required value']);
  });

  it('checks the backends', () => {
    const p = (backend: unknown) => ing({ rules: [rule({ path: '/', pathType: 'Prefix', backend })] });
    expect(msgs(validateIngressSpec(p({})))).toEqual(['spec.rules[0].http.paths[0].backend: Invalid value: "": resource or service backend is required']);
    expect(msgs(validateIngressSpec(p({ ...svc(), resource: { kind: 'K', name: 'n' } }))))
      .toEqual(['spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both resource and service backends']);
    expect(msgs(validateIngressSpec(p(svc('1web', { name: 'http', number: 80 }))))).toEqual([
      'spec.rules[0].http.paths[0].backend.service.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', '
        + "start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      'spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number',
    ]);
    expect(msgs(validateIngressSpec(p(svc('web', {}))))).toEqual(['spec.rules[0].http.paths[0].backend: Required value: port name or number is required']);
    expect(msgs(validateIngressSpec(p(svc('web', { number: 70000 }))))).toEqual(['spec.rules[0].http.paths[0].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive']);
    expect(msgs(validateIngressSpec(p(svc('', { name: 'Http' }))))).toEqual([
      'spec.rules[0].http.paths[0].backend.service.name: Required value',
      'spec.rules[0].http.paths[0].backend.service.port.name: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    ]);
    expect(msgs(validateIngressSpec(p({ resource: { kind: 'a/b' } })))).toEqual([
      'spec.rules[0].http.paths[0].backend.resource.kind: Invalid value: "a/b": may not contain \'/\'',
      'spec.rules[0].http.paths[0].backend.resource.name: Required value',
    ]);
  });

  it('checks hosts, TLS and the class name', () => {
    const ok = { path: '/', pathType: 'Prefix', backend: svc() };
    expect(msgs(validateIngressSpec(ing({ rules: [rule(ok, '1.2.3.4'), rule(ok, 'a.*.com')], tls: [{ hosts: ['Foo'], secretName: 'a_b' }], ingressClassName: 'A' })))).toEqual([
      'spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
      'spec.rules[1].host: Invalid value: "a.*.com": a wildcard DNS-1123 subdomain must start with \'*.\', followed by a valid DNS subdomain, which must consist of lower case '
        + "alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is "
        + "'\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.tls[0].hosts[0]: Invalid value: "Foo": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end '
        + "with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.tls[0].secretName: Invalid value: "a_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end '
        + "with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'spec.ingressClassName: Invalid value: "A": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end '
        + "with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
  });

  it('wants the class annotation to agree on create only', () => {
    const obj = ing({ defaultBackend: svc(), ingressClassName: 'a' }, { 'kubernetes.io/ingress.class': 'b' });
    expect(msgs(validateIngressCreate(obj))).toEqual(['annotations.kubernetes.io/ingress.class: Invalid value: "b": must match `ingressClassName` when both are specified']);
    expect(validateIngressUpdate(obj, obj)).toEqual([]);
  });

  it('lets an update keep invalid secret names and wildcard rules it already has', () => {
    const bad = ing({ rules: [{ host: '*.a.com', http: { paths: [{ path: 'x', pathType: 'Prefix', backend: svc() }] } }], tls: [{ secretName: 'A' }] });
    expect(msgs(validateIngressCreate(bad))).toHaveLength(2);
    expect(validateIngressUpdate(bad, bad)).toEqual([]);
    expect(msgs(validateIngressUpdate(bad, ing({ defaultBackend: svc() })))).toHaveLength(2);
  });
});
