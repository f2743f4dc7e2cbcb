// A metav1.Time or MicroTime of a built-in kind that Go's time.Parse refuses is refused through the API, as
// upstream's decoder and patchers refuse it, never stored (a client that parses times could not read it back).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';

let s: TestApiServer;

beforeAll(async () => {
  s = await startTestApiServer();
}, 30_000);

afterAll(async () => {
  await s?.close();
});

const PODS = '/api/v1/namespaces/default/pods';
const LEASES = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
const RFC3339 = '"2006-01-02T15:04:05Z07:00"';
const MICRO = '"2006-01-02T15:04:05.000000Z07:00"';

describe('times that do not parse', () => {
  it('a create is a 400 in the decoder\'s words', async () => {
    const ev = await s.api('POST', '/api/v1/namespaces/default/events', {
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'when.1' }, involvedObject: { kind: 'Pod', name: 'z', namespace: 'default' },
      reason: 'R', message: 'm', firstTimestamp: 'yesterday',
    });
    expect([ev.status, ev.body.reason, ev.body.message]).toEqual([400, 'BadRequest',
      `Event in version "v1" cannot be handled as a Event: parsing time "yesterday" as ${RFC3339}: cannot parse "yesterday" as "2006"`]);
    const lease = async (renewTime: string) => s.api('POST', LEASES, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { renewTime } });
    const naive = await lease('2026-12-01T04:15:52.175617');
    expect([naive.status, naive.body.message]).toEqual([400,
      `Lease in version "v1" cannot be handled as a Lease: parsing time "2026-12-01T04:15:52.175617" as ${MICRO}: cannot parse "" as "Z07:00"`]);
    expect((await lease('2026-12-01T04:15:52Z')).body.message).toMatch(/: cannot parse "Z" as "\.000000"$/);
    expect((await lease('2026-12-01T04:15:52.1+02:00')).body.message).toMatch(/: cannot parse "\.1\+02:00" as "\.000000"$/);
    expect((await s.api('GET', `${LEASES}/l`)).status).toBe(404);
    const good = await lease('2026-12-01T04:15:52.175617+02:00');
    expect([good.status, good.body.spec.renewTime]).toEqual([201, '2026-12-01T02:15:52.175617Z']);
  });

  it('a status patch, merge or strategic, is a 422 on the field "patch"; the pod stays readable', async () => {
    const created = await s.api('POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ng' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    expect(created.status).toBe(201);
    const patch = { status: { conditions: [{ type: 'example.com/Custom', status: 'True', lastTransitionTime: 'notatime' }] } };
    const parseError = `parsing time "notatime" as ${RFC3339}: cannot parse "notatime" as "2006"`;
    const merge = await s.api('PATCH', `${PODS}/ng/status`, patch, { 'content-type': 'application/merge-patch+json' });
    expect([merge.status, merge.body.reason]).toEqual([422, 'Invalid']);
    expect(merge.body.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Pod\\",\\"metadata\\":/);
    expect(merge.body.message.endsWith(`: ${parseError}`)).toBe(true);
    expect(merge.body.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'patch' })]);
    const strategic = await s.api('PATCH', `${PODS}/ng/status`, patch, { 'content-type': 'application/strategic-merge-patch+json' });
    expect([strategic.status, strategic.body.message]).toEqual([422,
      ` "" is invalid: patch: Invalid value: "map[status:map[conditions:[map[lastTransitionTime:notatime status:True type:example.com/Custom]]]]": ${parseError}`]);
    const pod = await s.api('GET', `${PODS}/ng`);
    expect(pod.status).toBe(200);
    expect(JSON.stringify(pod.body)).not.toContain('notatime');
  });
});
