// CertificateSigningRequests (upstream registry/certificates/certificates/strategy.go and
// pkg/apis/certificates/validation): the requesting user is recorded on create; the spec never changes after;
// the signer writes status (certificate, Failed) through /status, approvers Approved/Denied through /approval,
// each keeping what the other owns; a certificate once issued and Approved/Denied/Failed once set stay.
import type { KubeObject } from '../../../api/types.js';
import { KEY_USAGES } from '../../../api/certificates/v1/index.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { nameIsPathSegment } from '../../apimachinery/names.js';
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';

interface Condition { type: string; status: string; lastTransitionTime?: string; lastUpdateTime?: string; reason?: string; message?: string }

const APPROVAL_TYPES = ['Approved', 'Denied'];
const PERMANENT_TYPES = ['Approved', 'Denied', 'Failed'];

const conditionsOf = (o: KubeObject): Condition[] => (o.status?.conditions ?? []) as Condition[];

/** A PEM block's label and bytes; undefined when there is no block. */
function pemBlocks(text: string): { label: string; der: Buffer }[] {
  const out: { label: string; der: Buffer }[] = [];
  for (const m of text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g)) {
    out.push({ label: m[1]!, der: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') });
  }
  return out;
}

/** The PEM text of a `bytes` field (base64 in JSON). */
const decodeBytes = (b64: unknown): string => (typeof b64 === 'string' ? Buffer.from(b64, 'base64').toString('latin1') : '');

/** A DER SEQUENCE spanning exactly the bytes given (what every X.509 structure is at its top). */
function isDerSequence(der: Buffer): boolean {
  if (der.length < 2 || der[0] !== 0x30) return false;
  let len = der[1]!;
  let at = 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || der.length < 2 + n) return false;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[2 + i]!;
    at = 2 + n;
  }
  return at + len === der.length;
}

/** The request as upstream's field.Invalid prints a []byte (Go's %#v): `[]byte{0x2d, 0x2d, …}`, nil when absent. */
const invalidRequest = (b64: unknown, detail: string): StatusCause => {
  const bytes = typeof b64 === 'string' ? Buffer.from(b64, 'base64') : undefined;
  const shown = bytes ? `[]byte{${[...bytes].map((b) => `0x${b.toString(16)}`).join(', ')}}` : '[]byte(nil)';
  return fieldCause('FieldValueInvalid', 'spec.request', `Invalid value: ${shown}: ${detail}`);
};

/** Every usage upstream knows, sorted as its set's List() gives them. */
const SORTED_USAGES = [...KEY_USAGES].sort();

/** In upstream's order: request, usages (required, unsupported, duplicate), signerName, expirationSeconds. */
function validateSpec(csr: KubeObject): StatusCause[] {
  const spec = csr.spec ?? {};
  const causes: StatusCause[] = [];
  const blocks = pemBlocks(decodeBytes(spec.request));
  const csrBlock = blocks[0];
  if (!csrBlock || csrBlock.label !== 'CERTIFICATE REQUEST') causes.push(invalidRequest(spec.request, 'PEM block type must be CERTIFICATE REQUEST'));
  else if (!isDerSequence(csrBlock.der)) causes.push(invalidRequest(spec.request, 'x509: malformed certificate request'));
  const usages = (spec.usages ?? []) as string[];
  if (!usages.length) causes.push(required('spec.usages'));
  for (const [i, u] of usages.entries()) if (!KEY_USAGES.includes(u)) causes.push(notSupported(`spec.usages[${i}]`, u, SORTED_USAGES));
  const seen = new Set<string>();
  for (const [i, u] of usages.entries()) {
    if (seen.has(u)) causes.push(duplicate(`spec.usages[${i}]`, u));
    seen.add(u);
  }
  // only certificates.k8s.io/v1beta1 (not served any more) could create one; the name is then not checked further
  if (spec.signerName === 'kubernetes.io/legacy-unknown') causes.push(invalidValue('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
  else if (!spec.signerName) causes.push(required('spec.signerName'));
  else if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+\/\S+$/.test(spec.signerName)) {
    causes.push(invalidValue('spec.signerName', spec.signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'"));
  }
  const exp = spec.expirationSeconds as number | undefined;
  if (exp !== undefined && exp < 600) causes.push(invalidValue('spec.expirationSeconds', exp, 'may not specify a duration less than 600 seconds (10 minutes)'));
  return [...causes, ...validateStatus(csr)];
}

function validateStatus(csr: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const types = new Set<string>();
  for (const [i, c] of conditionsOf(csr).entries()) {
    const at = `status.conditions[${i}]`;
    // upstream's order: type, status, Approved/Denied exclusivity, duplicate type
    if (!c.type) causes.push(required(`${at}.type`));
    if (!c.status) causes.push(required(`${at}.status`));
    else if (PERMANENT_TYPES.includes(c.type) && c.status !== 'True') causes.push(notSupported(`${at}.status`, c.status, ['True']));
    else if (!['True', 'False', 'Unknown'].includes(c.status)) causes.push(notSupported(`${at}.status`, c.status, ['False', 'True', 'Unknown']));
    if (c.type === 'Denied' && types.has('Approved')) causes.push(invalidValue(`${at}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
    if (c.type === 'Approved' && types.has('Denied')) causes.push(invalidValue(`${at}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
    if (types.has(c.type)) causes.push(duplicate(`${at}.type`, c.type));
    types.add(c.type);
  }
  const cert = csr.status?.certificate;
  if (cert !== undefined && cert !== null && cert !== '') {
    const blocks = pemBlocks(decodeBytes(cert));
    if (!blocks.length) causes.push(invalidValue('status.certificate', '<certificate data>', 'must contain at least one CERTIFICATE PEM block'));
    for (const b of blocks) {
      if (b.label !== 'CERTIFICATE' || !isDerSequence(b.der)) { causes.push(invalidValue('status.certificate', '<certificate data>', 'PEM blocks must be CERTIFICATE blocks with a valid certificate')); break; }
    }
  }
  return causes;
}

function validateStatusUpdate(csr: KubeObject, old: KubeObject): StatusCause[] {
  const causes = validateStatus(csr);
  const oldCert = old.status?.certificate;
  if (oldCert && csr.status?.certificate !== oldCert) causes.push(invalidValue('status.certificate', '<certificate data>', 'updates may not modify existing certificate content'));
  const count = (o: KubeObject, t: string): number => conditionsOf(o).filter((c) => c.type === t).length;
  for (const t of PERMANENT_TYPES) {
    if (count(csr, t) < count(old, t)) causes.push(forbidden('status.conditions', `updates may not remove a condition of type "${t}"`));
  }
  return causes;
}

/** Condition times as upstream's strategy defaults them: now for a new condition or a changed status. */
function stampConditions(csr: KubeObject, old: KubeObject | undefined, now: string): void {
  const before = old ? conditionsOf(old) : [];
  for (const c of conditionsOf(csr)) {
    c.lastUpdateTime ??= now;
    const was = before.find((b) => b.type === c.type);
    if (!c.lastTransitionTime) c.lastTransitionTime = was && was.status === c.status && was.lastTransitionTime ? was.lastTransitionTime : now;
  }
}


export const certificateSigningRequestStrategy: Strategy = {
  // upstream does not care what requests are called (ValidateCertificateRequestName), beyond the path segment rule
  // every name meets: the kubelet names its own node-csr-<base64url digest>, capitals and underscores included
  nameFn: nameIsPathSegment,
  prepareForCreate(csr, ctx) {
    const user = ctx.user;
    const spec = (csr.spec ??= {});
    for (const f of ['username', 'uid', 'groups', 'extra']) delete spec[f];
    if (user?.name) spec.username = user.name;
    if (user?.uid) spec.uid = user.uid;
    if (user?.groups?.length) spec.groups = [...user.groups];
    if (user?.extra && Object.keys(user.extra).length) spec.extra = structuredClone(user.extra);
    csr.status = {};
  },
  prepareForUpdate(csr, old) {
    csr.spec = old.spec;
  },
  prepareForStatusUpdate(csr, old, ctx) {
    // the signer's /status keeps what approvers decided
    const mine = conditionsOf(csr).filter((c) => !APPROVAL_TYPES.includes(c.type));
    const approvals = conditionsOf(old).filter((c) => APPROVAL_TYPES.includes(c.type));
    csr.status = { ...csr.status, conditions: [...approvals, ...mine] };
    if (!csr.status.conditions.length) delete csr.status.conditions;
    stampConditions(csr, old, rfc3339(ctx.now));
  },
  validate: validateSpec,
  validateSubresource(csr, old, _ctx, subresource) {
    return subresource === 'status' || subresource === 'approval' ? validateStatusUpdate(csr, old) : [];
  },
};

/** /approval changes the Approved/Denied conditions only (upstream approvalStrategy). */
export function approvalUpdate(next: KubeObject, current: KubeObject): KubeObject {
  const approvals = conditionsOf(next).filter((c) => APPROVAL_TYPES.includes(c.type));
  const others = conditionsOf(current).filter((c) => !APPROVAL_TYPES.includes(c.type));
  const conditions = [...approvals, ...others];
  const status: Record<string, unknown> = { ...(current.status ?? {}) };
  if (conditions.length) status.conditions = conditions;
  else delete status.conditions;
  const out = { ...current, status };
  stampConditions(out, current, rfc3339(new Date()));
  return out;
}
