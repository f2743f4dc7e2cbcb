// A CRD's root metadata schema as upstream 1.32 applies it: the custom resource is validated whole, metadata
// included, so a root `required: [metadata, spec]` (argo-cd's Application, AppProject, ApplicationSet) is met by
// the object's metadata, and restrictions on metadata.name (maxLength, pattern) refuse names that break them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout as ok } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'] });
  await ok(s.kubectlWithInput(`${APPLICATION_CRD}---\n${SHORT_CRD}`, 'create', '-f', '-'));
  await ok(s.kubectl('wait', '--for=condition=Established', '--timeout=30s', 'crd/applications.argoproj.io', 'crd/shorts.example.com'));
});
afterAll(async () => { await s?.close(); });

// argo-cd's Application CRD, cut down to what matters here
const APPLICATION_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: applications.argoproj.io}
spec:
  group: argoproj.io
  scope: Namespaced
  names: {plural: applications, singular: application, kind: Application, shortNames: [app, apps]}
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources: {}
    schema:
      openAPIV3Schema:
        type: object
        required: [metadata, spec]
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            required: [destination, project]
            properties:
              project: {type: string}
              destination:
                type: object
                properties: {server: {type: string}, namespace: {type: string}}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

const SHORT_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: shorts.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: shorts, singular: short, kind: Short}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string, maxLength: 5, pattern: '^[a-z0-9]+$'}
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

const application = (name: string): string => `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: ${name}, namespace: default}
spec:
  project: default
  destination: {server: 'https://kubernetes.default.svc', namespace: guestbook}
`;

const short = (name: string): string => `apiVersion: example.com/v1
kind: Short
metadata: {name: ${name}}
spec: {a: 1}
`;

describe('a CRD\'s root metadata schema', () => {
  it('takes argo-cd\'s required [metadata, spec] as met by create, apply and server-side apply', async () => {
    expect(await ok(s.kubectlWithInput(application('guestbook'), 'create', '-f', '-'))).toBe('application.argoproj.io/guestbook created\n');
    expect(await ok(s.kubectlWithInput(application('guestbook2'), 'apply', '-f', '-'))).toBe('application.argoproj.io/guestbook2 created\n');
    expect(await ok(s.kubectlWithInput(application('guestbook3'), 'apply', '--server-side', '-f', '-'))).toBe('application.argoproj.io/guestbook3 serverside-applied\n');
    // and an update of one of them
    expect(await ok(s.kubectlWithInput(application('guestbook2').replace('namespace: guestbook', 'namespace: other'), 'apply', '-f', '-')))
      .toBe('application.argoproj.io/guestbook2 configured\n');
    expect(await ok(s.kubectl('get', 'applications', '-o', 'jsonpath={.items[*].metadata.name}'))).toBe('guestbook guestbook2 guestbook3');
  });

  it('still requires spec', async () => {
    const r = await s.kubectlWithInput('apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: nospec}\n', 'create', '-f', '-');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('The Application "nospec" is invalid: spec: Required value\n');
  });

  it('enforces maxLength and pattern of metadata.name with upstream\'s errors', async () => {
    expect(await ok(s.kubectlWithInput(short('ok1'), 'create', '-f', '-'))).toBe('short.example.com/ok1 created\n');
    const long = await s.kubectlWithInput(short('toolongname1'), 'create', '-f', '-');
    expect(long.code).toBe(1);
    expect(long.stderr).toBe('The Short "toolongname1" is invalid: metadata.name: Too long: may not be more than 5 bytes\n');
    const bad = await s.kubectlWithInput(short('a.b'), 'apply', '--server-side', '-f', '-');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('The Short "a.b" is invalid: metadata.name: Invalid value: "a.b": metadata.name in body should match \'^[a-z0-9]+$\'\n');
    expect(await ok(s.kubectl('get', 'shorts', '-o', 'name'))).toBe('short.example.com/ok1\n');
  });
});
