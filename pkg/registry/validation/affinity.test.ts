import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from '../../apimachinery/names.js';
import { validateAffinity, validateTopologySpreadConstraints } from './affinity.js';

const affinity = (a: unknown): string[] => {
  const causes: StatusCause[] = [];
  validateAffinity(a, 'spec.affinity', causes);
  return causes.map((c) => `${c.field}: ${c.message}`);
};
const spread = (c: unknown[]): string[] => {
  const causes: StatusCause[] = [];
  validateTopologySpreadConstraints(c, 'spec.topologySpreadConstraints', causes);
  return causes.map((x) => `${x.field}: ${x.message}`);
};
const REQ = 'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms';

describe('validateAffinity', () => {
  it('requires node selector terms and checks their requirements', () => {
    expect(affinity({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } }))
      .toEqual([`${REQ}: Required value: must have at least one node selector term`]);
    expect(affinity({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [
      { key: 'a', operator: 'In' }, { key: 'b', operator: 'Exists', values: ['x'] }, { key: 'c', operator: 'Gt', values: ['1', '2'] },
      { key: 'd', operator: 'Near', values: ['x'] }, { key: 'e', operator: 'In', values: ['bad value!'] },
    ], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1', 'n2'] }, { key: 'spec.nodeName', operator: 'Exists' }] }] } } })).toEqual([
      `${REQ}[0].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      `${REQ}[0].matchExpressions[1].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      `${REQ}[0].matchExpressions[2].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      `${REQ}[0].matchExpressions[3].operator: Invalid value: "Near": not a valid selector operator`,
      ...isValidLabelValue('bad value!').map((m) => `${REQ}[0].matchExpressions[4].values[0]: Invalid value: "bad value!": ${m}`),
      `${REQ}[0].matchFields[0].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
      `${REQ}[0].matchFields[1].operator: Invalid value: "Exists": not a valid selector operator`,
      `${REQ}[0].matchFields[1].key: Invalid value: "spec.nodeName": not a valid field selector key`,
    ]);
  });

  it('weighs preferred terms 1-100 and lets them name any value', () => {
    const at = 'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution';
    expect(affinity({ nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [
      { weight: 0, preference: { matchExpressions: [{ key: 'a', operator: 'In', values: ['bad value!'] }] } },
      { weight: 101, preference: {} },
    ] } })).toEqual([`${at}[0].weight: Invalid value: 0: must be in the range 1-100`, `${at}[1].weight: Invalid value: 101: must be in the range 1-100`]);
  });

  it('checks pod (anti-)affinity terms', () => {
    const at = 'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]';
    expect(affinity({ podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{
      labelSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x'] }, { key: 'tier', operator: 'Exists' }] },
      namespaces: ['Bad_NS'], matchLabelKeys: ['tier', 'zone'], mismatchLabelKeys: ['zone'], topologyKey: '',
    }] } })).toEqual([
      `${at}.namespace: Invalid value: "Bad_NS": ${isDNS1123Label('Bad_NS')[0]}`,
      // upstream's path: the term's, indexed by the key's place in matchLabelKeys
      `${at}[0]: Invalid value: "tier": exists in both matchLabelKeys and labelSelector`,
      `${at}.matchLabelKeys[1]: Invalid value: "zone": exists in both matchLabelKeys and mismatchLabelKeys`,
      `${at}.topologyKey: Required value: can not be empty`,
      ...isQualifiedName('').map((m) => `${at}.topologyKey: Invalid value: "": ${m}`),
    ]);
    const anti = 'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]';
    expect(affinity({ podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 200, podAffinityTerm: { matchLabelKeys: ['app'], topologyKey: 'zone' } }] } })).toEqual([
      `${anti}.weight: Invalid value: 200: must be in the range 1-100`,
      `${anti}.podAffinityTerm.matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
    ]);
  });
});

describe('validateTopologySpreadConstraints', () => {
  it('checks each constraint and refuses a repeated {topologyKey, whenUnsatisfiable}', () => {
    const at = 'spec.topologySpreadConstraints';
    expect(spread([
      { maxSkew: 0, topologyKey: '', whenUnsatisfiable: 'Maybe' },
      { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 0, nodeAffinityPolicy: 'Always', nodeTaintsPolicy: 'Ignore' },
      { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', matchLabelKeys: ['app'], labelSelector: { matchLabels: { app: 'web' } } },
      { maxSkew: 1, topologyKey: 'host', whenUnsatisfiable: 'DoNotSchedule', matchLabelKeys: ['app'] },
    ])).toEqual([
      `${at}[0].maxSkew: Invalid value: 0: must be greater than zero`,
      `${at}[0].topologyKey: Required value: can not be empty`,
      `${at}[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"`,
      `${at}[1].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, ScheduleAnyway}"`,
      `${at}[1].minDomains: Invalid value: 0: must be greater than zero`,
      `${at}[1].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway`,
      `${at}[1].nodeAffinityPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"`,
      `${at}[2].matchLabelKeys[0]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`,
      `${at}[3].matchLabelKeys: Forbidden: must not be specified when labelSelector is not set`,
    ]);
    expect(spread([{ maxSkew: 2, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 3, labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }]))
      .toEqual(["spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]);
  });
});
