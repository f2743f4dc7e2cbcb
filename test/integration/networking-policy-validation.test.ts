// What upstream's policy and networking validation refuse, judged by the real kubectl: bad PodDisruptionBudgets,
// Ingresses and NetworkPolicies are 422 with upstream's field paths and messages, and what kubectl's generators make
// (create pdb, create ingress) is taken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
});
afterAll(async () => { await s?.close(); });

/** kubectl create --dry-run=server -f -: its stderr. */
const refused = async (yaml: string): Promise<string> => {
  const r = await s.kubectlWithInput(yaml, 'create', '--dry-run=server', '-f', '-');
  expect(r.code, r.stdout).not.toBe(0);
  return r.stderr.trim();
};

const accepted = async (yaml: string): Promise<void> => {
  const r = await s.kubectlWithInput(yaml, 'create', '--dry-run=server', '-f', '-');
  expect(r.code, r.stderr).toBe(0);
};

/** A kubectl generator's object (--dry-run=client -o yaml), created with a server dry run. */
const generated = async (...args: string[]): Promise<void> => {
  const g = await s.kubectl('create', ...args, '--dry-run=client', '-o', 'yaml');
  expect(g.code, g.stderr).toBe(0);
  await accepted(g.stdout);
};

const pdb = (spec: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec: {${spec}}\n`;
const ingress = (spec: string) => `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}\nspec: {${spec}}\n`;
const path = (p: string) => `rules: [{host: foo.com, http: {paths: [{${p}}]}}]`;
const backend = 'backend: {service: {name: web, port: {number: 80}}}';
const netpol = (spec: string) => `apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: "n"}\nspec: {podSelector: {}, ${spec}}\n`;

describe('policy and networking validation', () => {
  it('refuses bad PodDisruptionBudgets and takes kubectl create pdb', async () => {
    expect(await refused(pdb('minAvailable: 1, maxUnavailable: 1, selector: {matchLabels: {app: a}}')))
      .toMatch(/^The PodDisruptionBudget "p" is invalid: spec: Invalid value: policy\.PodDisruptionBudgetSpec\{MinAvailable:\(\*intstr\.IntOrString\)\(0xc[0-9a-f]+\), .*: minAvailable and maxUnavailable cannot be both set$/);
    expect(await refused(pdb('maxUnavailable: "120%"')))
      .toBe('The PodDisruptionBudget "p" is invalid: spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%');
    expect(await refused(pdb('minAvailable: -1, unhealthyPodEvictionPolicy: Never'))).toBe('The PodDisruptionBudget "p" is invalid: \n'
      + '* spec.minAvailable: Invalid value: -1: must be greater than or equal to 0\n'
      + '* spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"');
    await generated('pdb', 'p1', '--selector=app=rails', '--min-available=1');
    await generated('pdb', 'p2', '--selector=app=rails', '--max-unavailable=50%');
  });

  it('refuses bad Ingresses and takes kubectl create ingress', async () => {
    expect(await refused(ingress(path(`path: /, pathType: Foo, ${backend}`))))
      .toBe('The Ingress "i" is invalid: spec.rules[0].http.paths[0].pathType: Unsupported value: "Foo": supported values: "Exact", "ImplementationSpecific", "Prefix"');
    expect(await refused(ingress(path(`path: foo, pathType: Prefix, ${backend}`))))
      .toBe('The Ingress "i" is invalid: spec.rules[0].http.paths[0].path: Invalid value: "foo": must be an absolute path');
    expect(await refused(ingress(path('path: /, pathType: Exact, backend: {service: {name: web, port: {name: http, number: 80}}}'))))
      .toBe('The Ingress "i" is invalid: spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number');
    expect(await refused(ingress('tls: [{hosts: [foo.com]}]')))
      .toBe('The Ingress "i" is invalid: spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified');
    expect(await refused(ingress(`rules: [{host: 1.2.3.4, http: {paths: [{path: /, pathType: Prefix, ${backend}}]}}]`)))
      .toBe('The Ingress "i" is invalid: spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address');
    await generated('ingress', 'simple', '--rule=foo.com/bar=svc1:8080,tls=my-cert');
    await generated('ingress', 'catch-all', '--class=otheringress', '--rule=/path=svc:port');
    await generated('ingress', 'default', '--default-backend=defaultsvc:http', '--rule=foo.com/*=svc:8080,tls=secret1');
  });

  it('refuses bad NetworkPolicies and takes valid ones', async () => {
    expect(await refused(netpol('ingress: [{ports: [{protocol: XTP, port: 80}]}]')))
      .toBe('The NetworkPolicy "n" is invalid: spec.ingress[0].ports[0].protocol: Unsupported value: "XTP": supported values: "TCP", "UDP", "SCTP"');
    expect(await refused(netpol('egress: [{to: [{ipBlock: {cidr: 10.0.0.0/16, except: [10.1.0.0/24]}, podSelector: {}}]}]'))).toBe('The NetworkPolicy "n" is invalid: \n'
      + '* spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of `cidr`\n'
      + '* spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer');
    expect(await refused(netpol('ingress: [{ports: [{port: http, endPort: 90}]}], policyTypes: [Ingress, Sideways]'))).toBe('The NetworkPolicy "n" is invalid: \n'
      + '* spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric\n'
      + '* spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"');
    await accepted(netpol('policyTypes: [Ingress, Egress], ingress: [{from: [{namespaceSelector: {matchLabels: {team: a}}, podSelector: {}}], '
      + 'ports: [{port: 8000, endPort: 9000}]}], egress: [{to: [{ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}}], ports: [{protocol: UDP, port: 53}]}]'));
    // no podSelector is Go's empty one, every pod of the namespace, written back as {}
    const bare = await s.kubectlWithInput('apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: all}\nspec: {policyTypes: [Ingress]}\n',
      'create', '--dry-run=server', '-o', 'jsonpath={.spec.podSelector}', '-f', '-');
    expect([bare.code, bare.stdout, bare.stderr]).toEqual([0, '{}', '']);
  });
});
