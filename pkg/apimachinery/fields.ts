// Field selectors as upstream's k8s.io/apimachinery/pkg/fields, and the selectable fields of each resource
// (upstream's per-kind field label conversion funcs and GetAttrs/ToSelectableFields).
//
//   parseFieldSelector(s: string): FieldSelector           // "a=b,c==d,e!=f", "\\" escapes "\\", ",", "="; throws BadRequest
//   fieldSelectorFor(group, plural, s): FieldSelector      // parse + check the labels the resource supports (BadRequest)
//   fieldsOf(plural, obj, group?): Record<string, string>  // the values the selector is matched against
//   escapeFieldValue(v: string): string
//   FieldSelector: { requirements, empty, matches(fields), toString(), requiresExactMatch(field) }
import type { KubeObject } from '../../api/types.js';
import { badRequest } from './errors.js';

export interface FieldRequirement {
  field: string;
  /** "==" parses to "=" as upstream's hasTerm does. */
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  readonly requirements: FieldRequirement[];
  readonly empty: boolean;
  /** A field missing from `fields` counts as "" (upstream's fields.Set.Get). */
  matches(fields: Record<string, string>): boolean;
  toString(): string;
  requiresExactMatch(field: string): string | undefined;
}

export const escapeFieldValue = (v: string): string => v.replace(/[\\,=]/g, (c) => `\\${c}`);

const unescapeFieldValue = (s: string): string => {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw badRequest(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // upstream prints the rune with %v, i.e. its code point
      throw badRequest(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
};

/** Splits on commas that are not escaped. */
const splitTerms = (s: string): string[] => {
  if (!s) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    if (inSlash) inSlash = false;
    else if (s[i] === '\\') inSlash = true;
    else if (s[i] === ',') { terms.push(s.slice(start, i)); start = i + 1; }
  }
  terms.push(s.slice(start));
  return terms;
};

const TERM_OPERATORS = ['!=', '==', '='] as const;

const makeFieldSelector = (requirements: FieldRequirement[]): FieldSelector => ({
  requirements,
  empty: requirements.length === 0,
  matches: (fields) => requirements.every((r) => ((fields[r.field] ?? '') === r.value) === (r.operator === '=')),
  toString: () => requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(','),
  requiresExactMatch: (field) => requirements.find((r) => r.field === field && r.operator === '=')?.value,
});

export const parseFieldSelector = (s: string): FieldSelector => {
  const reqs: FieldRequirement[] = [];
  for (const part of splitTerms(s).sort()) {
    if (!part) continue;
    let found: FieldRequirement | undefined;
    for (let i = 0; i < part.length && !found; i++) {
      const op = TERM_OPERATORS.find((o) => part.startsWith(o, i));
      if (op) found = { field: part.slice(0, i), operator: op === '!=' ? '!=' : '=', value: unescapeFieldValue(part.slice(i + op.length)) };
    }
    if (!found) throw badRequest(`invalid selector: '${s}'; can't understand '${part}'`);
    reqs.push(found);
  }
  return makeFieldSelector(reqs);
};

// Labels each resource accepts beyond none: upstream registers a conversion func per kind; kinds
// without one accept only metadata.name and metadata.namespace, with a different message.
const META = ['metadata.name', 'metadata.namespace'];
/** An Event's object reference fields, selectable as involvedObject.* (core) or regarding.* (events.k8s.io). */
const REFERENCE_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
const SUPPORTED: Record<string, string[]> = {
  '/pods': [...META, 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'spec.hostNetwork',
    // status.podIPs is taken (the downward API's name) but has no value: it matches the empty string only
    'status.phase', 'status.podIP', 'status.podIPs', 'status.nominatedNodeName'],
  '/nodes': ['metadata.name', 'spec.unschedulable'],
  '/replicationcontrollers': [...META, 'status.replicas'],
  '/events': [...META, ...REFERENCE_FIELDS.map((f) => `involvedObject.${f}`), 'reason', 'reportingComponent', 'source', 'type'],
  '/namespaces': ['metadata.name', 'status.phase'],
  '/secrets': [...META, 'type'],
  '/services': [...META, 'spec.clusterIP', 'spec.type'],
  'apps/replicasets': [...META, 'status.replicas'],
  'batch/jobs': [...META, 'status.successful'],
  'certificates.k8s.io/certificatesigningrequests': ['metadata.name', 'spec.signerName'],
  'certificates.k8s.io/clustertrustbundles': ['metadata.name', 'spec.signerName'],
  // a core Event's fields by events.k8s.io's names (upstream converts them to the core ones; its own are not taken)
  'events.k8s.io/events': [...META, 'reason', 'source', 'type', 'reportingController',
    ...REFERENCE_FIELDS.map((f) => `regarding.${f}`)],
};
/** Old clients' names for a field. */
const RENAMED: Record<string, Record<string, string>> = { '/pods': { 'spec.host': 'spec.nodeName' } };

export const fieldSelectorFor = (group: string, plural: string, s: string): FieldSelector => {
  const parsed = parseFieldSelector(s);
  const key = `${group}/${plural}`;
  const supported = SUPPORTED[key];
  const renamed = RENAMED[key] ?? {};
  const reqs = parsed.requirements.map((r) => {
    const field = renamed[r.field] ?? r.field;
    if (supported ? !supported.includes(field) : !META.includes(field)) {
      throw badRequest(supported
        ? `field label not supported: ${r.field}`
        : `${JSON.stringify(r.field)} is not a known field selector: only "metadata.name", "metadata.namespace"`);
    }
    return { ...r, field };
  });
  return makeFieldSelector(reqs);
};

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

type FieldsFn = (o: KubeObject) => Record<string, string>;
const PER_RESOURCE: Record<string, FieldsFn> = {
  pods: (o) => ({
    'spec.nodeName': str(o.spec?.nodeName),
    'spec.restartPolicy': str(o.spec?.restartPolicy),
    'spec.schedulerName': str(o.spec?.schedulerName),
    'spec.serviceAccountName': str(o.spec?.serviceAccountName),
    'spec.hostNetwork': String(o.spec?.hostNetwork === true),
    'status.phase': str(o.status?.phase),
    'status.podIP': str(o.status?.podIPs?.[0]?.ip ?? o.status?.podIP),
    'status.nominatedNodeName': str(o.status?.nominatedNodeName),
  }),
  events: (o) => ({
    ...Object.fromEntries(REFERENCE_FIELDS.map((f) => [`involvedObject.${f}`, str(o.involvedObject?.[f])])),
    reason: str(o.reason),
    reportingComponent: str(o.reportingComponent),
    source: str(o.source?.component),
    type: str(o.type),
  }),
  'events.k8s.io/events': (o) => ({
    ...Object.fromEntries(REFERENCE_FIELDS.map((f) => [`regarding.${f}`, str(o.regarding?.[f])])),
    reason: str(o.reason),
    reportingController: str(o.reportingController),
    source: str(o.deprecatedSource?.component),
    type: str(o.type),
  }),
  secrets: (o) => ({ type: str(o.type) }),
  nodes: (o) => ({ 'spec.unschedulable': String(o.spec?.unschedulable === true) }),
  namespaces: (o) => ({ 'status.phase': str(o.status?.phase) }),
  services: (o) => ({ 'spec.clusterIP': str(o.spec?.clusterIP), 'spec.type': str(o.spec?.type) }),
  replicasets: (o) => ({ 'status.replicas': String(o.status?.replicas ?? 0) }),
  replicationcontrollers: (o) => ({ 'status.replicas': String(o.status?.replicas ?? 0) }),
  jobs: (o) => ({ 'status.successful': String(o.status?.succeeded ?? 0) }),
  certificatesigningrequests: (o) => ({ 'spec.signerName': str(o.spec?.signerName) }),
  clustertrustbundles: (o) => ({ 'spec.signerName': str(o.spec?.signerName) }),
};

/** The field values of `obj`, as served by the group (events.k8s.io's view of an Event has its own names). */
export const fieldsOf = (plural: string, obj: KubeObject, group = ''): Record<string, string> => {
  const key = group === 'events.k8s.io' ? `${group}/${plural}` : plural;
  return {
    'metadata.name': str(obj.metadata?.name),
    'metadata.namespace': str(obj.metadata?.namespace),
    // a custom resource's plural may be any DNS label, "constructor" too
    ...(Object.hasOwn(PER_RESOURCE, key) ? PER_RESOURCE[key]!(obj) : {}),
  };
};
