// metav1.Time and MicroTime values of built-in kinds: decoded as Go's time.Parse reads them (a failure is the
// decoder's 400, which stops it where it is), then written back as Go marshals them.
import { describe, expect, it } from 'vitest';
import { allDefaulters, allDefinitions } from '../../../api/index.js';
import { refTo } from '../../../api/schema.js';
import { StatusError } from '../../apimachinery/errors.js';
import { canonicalizeValues } from './canonical.js';
import { SchemaIndex } from './index.js';
import { TypeChecker } from './typecheck.js';

const index = new SchemaIndex(allDefinitions, allDefaulters);
const types = new TypeChecker(index);
const POD = 'io.k8s.api.core.v1.Pod';
const EVENT = 'io.k8s.api.core.v1.Event';
const LEASE = 'io.k8s.api.coordination.v1.Lease';

/** The decoder's refusal of `obj` as `kind` ([code, message]), or undefined. */
const refusal = (obj: unknown, definition: string, kind: string): [number, string] | undefined => {
  try {
    types.check(obj, definition, kind, 'v1');
    return undefined;
  } catch (e) {
    return e instanceof StatusError ? [e.code, e.message] : [0, String(e)];
  }
};

const RFC3339 = '"2006-01-02T15:04:05Z07:00"';
const MICRO = '"2006-01-02T15:04:05.000000Z07:00"';
const condition = (lastTransitionTime: unknown) => ({ status: { conditions: [{ type: 'example.com/Custom', status: 'True', lastTransitionTime }] } });
const lease = (renewTime: unknown) => ({ spec: { holderIdentity: 'me', renewTime } });

describe('decoding times', () => {
  it('refuses a Time that does not parse as time.RFC3339, as transformDecodeError words it', () => {
    expect(refusal(condition('notatime'), POD, 'Pod')).toEqual([400,
      `Pod in version "v1" cannot be handled as a Pod: parsing time "notatime" as ${RFC3339}: cannot parse "notatime" as "2006"`]);
    expect(refusal({ firstTimestamp: 'yesterday' }, EVENT, 'Event')).toEqual([400,
      `Event in version "v1" cannot be handled as a Event: parsing time "yesterday" as ${RFC3339}: cannot parse "yesterday" as "2006"`]);
    expect(refusal({ metadata: { creationTimestamp: '2026-13-01T00:00:00Z' } }, POD, 'Pod')).toEqual([400,
      'Pod in version "v1" cannot be handled as a Pod: parsing time "2026-13-01T00:00:00Z": month out of range']);
    expect(refusal(condition('2026-12-01T04:15:52.5+02:00'), POD, 'Pod')).toBeUndefined();
    expect(refusal(condition(null), POD, 'Pod')).toBeUndefined();
  });

  it('refuses a MicroTime without exactly six decimals and a zone', () => {
    const refused = (v: string, elem: string, layoutElem: string): [number, string] => [400,
      `Lease in version "v1" cannot be handled as a Lease: parsing time "${v}" as ${MICRO}: cannot parse "${elem}" as "${layoutElem}"`];
    expect(refusal(lease('2026-12-01T04:15:52.175617'), LEASE, 'Lease')).toEqual(refused('2026-12-01T04:15:52.175617', '', 'Z07:00'));
    expect(refusal(lease('garbage'), LEASE, 'Lease')).toEqual(refused('garbage', 'garbage', '2006'));
    expect(refusal(lease('2026-12-01 04:15:52.175617Z'), LEASE, 'Lease')).toEqual(refused('2026-12-01 04:15:52.175617Z', ' 04:15:52.175617Z', 'T'));
    expect(refusal(lease('2026-12-01T04:15:52Z'), LEASE, 'Lease')).toEqual(refused('2026-12-01T04:15:52Z', 'Z', '.000000'));
    expect(refusal(lease('2026-12-01T04:15:52.1+02:00'), LEASE, 'Lease')).toEqual(refused('2026-12-01T04:15:52.1+02:00', '.1+02:00', '.000000'));
    expect(refusal(lease('2026-12-01T04:15:52.175617+02:00'), LEASE, 'Lease')).toBeUndefined();
  });

  it("a time that is no string fails in the time's own decoder, which names no struct field", () => {
    expect(refusal(condition(5), POD, 'Pod')).toEqual([400, 'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go value of type string']);
    expect(refusal(lease({}), LEASE, 'Lease')).toEqual([400, 'Lease in version "v1" cannot be handled as a Lease: json: cannot unmarshal object into Go value of type string']);
  });

  it('reports the first failing quantity or time in document order before any type error: those stop the decoder', () => {
    const mistyped = { spec: { containers: 5 }, ...condition('notatime') };
    expect(refusal(mistyped, POD, 'Pod')?.[1]).toMatch(/: parsing time "notatime" as/);
    expect(refusal({ lastTimestamp: 'b', firstTimestamp: 'a' }, EVENT, 'Event')?.[1]).toMatch(/: parsing time "b" as/);
    const quantity = { spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'lots' } } }] }, ...condition('notatime') };
    expect(refusal(quantity, POD, 'Pod')?.[1]).toMatch(/: quantities must match the regular expression/);
    // a time under a value of the wrong type is never decoded
    expect(refusal({ spec: 5, status: { conditions: 'x' } }, POD, 'Pod')?.[1]).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Pod.spec of type v1.PodSpec');
  });
});

describe('writing times back', () => {
  it('in UTC, to the second or with six decimals, and the zero time as null', () => {
    const pod = condition('2026-12-01T04:15:52.5+02:00') as Record<string, unknown>;
    canonicalizeValues(index, pod, refTo(POD));
    expect(pod).toEqual(condition('2026-12-01T02:15:52Z'));
    const zero = condition('0001-01-01T00:00:00Z') as Record<string, unknown>;
    canonicalizeValues(index, zero, refTo(POD));
    expect(zero).toEqual(condition(null));
    const l = lease('2026-12-01T04:15:52,175617+02:00') as Record<string, unknown>;
    canonicalizeValues(index, l, refTo(LEASE));
    expect(l).toEqual(lease('2026-12-01T02:15:52.175617Z'));
  });
});
