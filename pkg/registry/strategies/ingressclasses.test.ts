import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { ingressClassStrategy, validateIngressClass } from './ingressclasses.js';

const check = (spec: Record<string, unknown>): string[] => validateIngressClass({ metadata: { name: 'nginx' }, spec }).map(causeToString);

describe('IngressClass validation', () => {
  it('takes a controller and a parameters reference of either scope', () => {
    expect(check({ controller: 'k8s.io/ingress-nginx' })).toEqual([]);
    expect(check({ controller: 'example.com/lb', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb', scope: 'Namespace', namespace: 'lb' } })).toEqual([]);
    expect(check({ controller: 'example.com/lb', parameters: { kind: 'ConfigMap', name: 'lb', scope: 'Cluster' } })).toEqual([]);
  });

  it('refuses a controller that is not a domain-prefixed path', () => {
    expect(check({})).toEqual(['spec.controller: Required value']);
    expect(check({ controller: 'nginx' })).toEqual(['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']);
    expect(check({ controller: 'Example.com/x y' })).toEqual([
      expect.stringMatching(/^spec\.controller: Invalid value: "Example\.com": a lowercase RFC 1123 subdomain/),
      'spec.controller: Invalid value: "x y": Invalid path (regex used for validation is \'[A-Za-z0-9/\\-._~%!$&\'()*+,;=:]+\')',
    ]);
    expect(check({ controller: `example.com/${'x'.repeat(250)}` })[0]).toBe('spec.controller: Too long: may not be more than 250 bytes');
  });

  it('checks the parameters reference: kind, name, scope and namespace', () => {
    expect(check({ controller: 'a.io/b', parameters: { name: 'a/b', scope: 'Namespace' } })).toEqual([
      'spec.parameters.kind: Required value: kind is required',
      "spec.parameters.name: Invalid value: \"a/b\": may not contain '/'",
      "spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'",
    ]);
    expect(check({ controller: 'a.io/b', parameters: { kind: 'K', name: 'n' } })).toEqual(['spec.parameters.scope: Required value']);
    expect(check({ controller: 'a.io/b', parameters: { kind: 'K', name: 'n', scope: 'Global' } })).toEqual(['spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"']);
    expect(check({ controller: 'a.io/b', parameters: { kind: 'K', name: 'n', scope: 'Cluster', namespace: 'x' } })).toEqual(["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]);
  });

  it('keeps the controller on updates', () => {
    const old = { metadata: { name: 'nginx' }, spec: { controller: 'k8s.io/ingress-nginx' } };
    expect(ingressClassStrategy.validateUpdate!({ ...old, spec: { controller: 'example.com/other' } }, old, undefined as never)).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.controller', message: 'Invalid value: "example.com/other": field is immutable' },
    ]);
  });
});
