// The Kubernetes API review policy on CRDs of protected groups (*.k8s.io, *.kubernetes.io), as upstream: created only
// with the `api-approved.kubernetes.io` annotation (a URL, or a reason starting "unapproved"), an update that leaves
// the approval state alone passes, and the KubernetesAPIApprovalPolicyConformant condition reports the state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;
beforeAll(async () => { s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], controllers: [] }); });
afterAll(async () => { await s?.close(); });

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const ANNOTATION = 'api-approved.kubernetes.io';

const crd = (plural: string, group: string, annotations?: Record<string, string>) => ({
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${group}`, annotations },
  spec: {
    group, scope: 'Cluster',
    names: { plural, kind: plural[0]!.toUpperCase() + plural.slice(1, -1) },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});

type Cond = { type: string; status: string; reason: string; message: string };
async function approvalCondition(name: string): Promise<Cond> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const got = await s.api('GET', `${CRDS}/${name}`);
    const cond = (got.body.status?.conditions as Cond[] | undefined)?.find((c) => c.type === 'KubernetesAPIApprovalPolicyConformant');
    if (cond) return cond;
    if (Date.now() > deadline) throw new Error(`${name}: no approval condition in time`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('API approval of protected groups', () => {
  it('refuses a protected group\'s CRD without the annotation or with one that is neither a URL nor "unapproved…"', async () => {
    const missing = await s.api('POST', CRDS, crd('gizmos', 'x.k8s.io'));
    expect(missing.status).toBe(422);
    expect(missing.body.details.causes).toEqual([{
      reason: 'FieldValueRequired', field: `metadata.annotations[${ANNOTATION}]`,
      message: `Required value: protected groups must have approval annotation "${ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111`,
    }]);
    for (const bad of ['github.com/kubernetes/enhancements/pull/1111', 'https:no-host', 'approved', 'https://exa mple.com/']) {
      const invalid = await s.api('POST', CRDS, crd('gizmos', 'apps.kubernetes.io', { [ANNOTATION]: bad }));
      expect(invalid.status, bad).toBe(422);
      expect(invalid.body.details.causes, bad).toEqual([{
        reason: 'FieldValueInvalid', field: `metadata.annotations[${ANNOTATION}]`,
        message: `Invalid value: ${JSON.stringify(bad)}: protected groups must have approval annotation "${ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
      }]);
    }
    // not protected: k8s.io only as a suffix of a whole label
    expect((await s.api('POST', CRDS, crd('gizmos', 'notk8s.io'))).status).toBe(201);
  });

  it('reports the approval state as the KubernetesAPIApprovalPolicyConformant condition', async () => {
    const url = 'https://github.com/kubernetes/enhancements/pull/1111';
    expect((await s.api('POST', CRDS, crd('approveds', 'a.k8s.io', { [ANNOTATION]: url }))).status).toBe(201);
    expect(await approvalCondition('approveds.a.k8s.io')).toMatchObject({ status: 'True', reason: 'ApprovedAnnotation', message: `approved in ${url}` });
    expect((await s.api('POST', CRDS, crd('bypasseds', 'k8s.io', { [ANNOTATION]: 'unapproved, experimental' }))).status).toBe(201);
    expect(await approvalCondition('bypasseds.k8s.io')).toMatchObject({ status: 'False', reason: 'UnapprovedAnnotation', message: 'not approved: "unapproved, experimental"' });
    // an update may not take the annotation away
    const removed = await s.api('PATCH', `${CRDS}/approveds.a.k8s.io`, { metadata: { annotations: { [ANNOTATION]: null } } }, { 'content-type': 'application/merge-patch+json' });
    expect(removed.status).toBe(422);
    expect(removed.body.details.causes[0]).toMatchObject({ reason: 'FieldValueRequired', field: `metadata.annotations[${ANNOTATION}]` });
  });

  it('lets an update keep the approval state the stored CRD has, the condition following a change of it', async () => {
    expect((await s.api('POST', CRDS, crd('keeps', 'b.k8s.io', { [ANNOTATION]: 'unapproved' }))).status).toBe(201);
    expect((await approvalCondition('keeps.b.k8s.io')).reason).toBe('UnapprovedAnnotation');
    const approved = await s.api('PATCH', `${CRDS}/keeps.b.k8s.io`, { metadata: { annotations: { [ANNOTATION]: 'https://example.com/pr/1' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(approved.status).toBe(200);
    const deadline = Date.now() + 10_000;
    while ((await approvalCondition('keeps.b.k8s.io')).reason !== 'ApprovedAnnotation') {
      if (Date.now() > deadline) throw new Error('condition not updated in time');
      await new Promise((r) => setTimeout(r, 20));
    }
    // the same state (approved, another URL) with a spec change passes
    const again = await s.api('PATCH', `${CRDS}/keeps.b.k8s.io`, { metadata: { annotations: { [ANNOTATION]: 'https://example.com/pr/2' } }, spec: { names: { categories: ['all'] } } }, { 'content-type': 'application/merge-patch+json' });
    expect(again.status).toBe(200);
  });
});
