// StorageClasses (upstream: pkg/apis/storage/validation ValidateStorageClass and ValidateStorageClassUpdate): a
// provisioner that is a qualified name (lower-cased), parameters with non-empty keys, at most 512 of them and 256 KiB
// in all, reclaimPolicy Delete or Retain, volumeBindingMode Immediate or WaitForFirstConsumer; provisioner,
// parameters, reclaimPolicy and volumeBindingMode never change. allowedTopologies (validateAllowedTopologies, with
// core's ValidateTopologySelectorTerm): each expression's values given and none twice, its key a label name, no key
// twice in a term, and no term equal to an earlier one. Upstream compares each term with a list that starts with as
// many nil terms as there are terms, equal to an empty one: a term without expressions is a Duplicate once per term
// (and once more per empty term before it), which is kept here. Deprecated node labels as keys are warned of.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required, tooLong } from '../../apimachinery/field.js';
import { isQualifiedName } from '../../apimachinery/names.js';
import { validateLabelName } from '../../apimachinery/objectmeta.js';
import type { Strategy } from '../strategy.js';
import { isObj, list, str } from '../validation/field-checks.js';
import { nodeLabelDeprecation } from './pod-warnings.js';

const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

function validateParameters(params: unknown, causes: StatusCause[]): void {
  if (!isObj(params)) return;
  const keys = Object.keys(params);
  if (keys.length > MAX_PARAMETERS) {
    causes.push(tooLong('parameters', MAX_PARAMETERS));
    return;
  }
  let size = 0;
  for (const k of keys) {
    if (k.length < 1) causes.push(invalidValue('parameters', k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(String(params[k] ?? ''));
  }
  if (size > MAX_PARAMETERS_SIZE) causes.push(tooLong('parameters', MAX_PARAMETERS_SIZE));
}

/** A term as upstream compares them: each key to the set of its values (a later expression's key replaces an earlier). */
type RawTerm = Map<string, Set<string>>;

/** ValidateTopologySelectorTerm: its causes pushed, the term in raw form returned. */
function validateTopologyTerm(term: unknown, path: string, causes: StatusCause[]): RawTerm {
  const raw: RawTerm = new Map();
  list(isObj(term) ? term.matchLabelExpressions : undefined).forEach((expr, i) => {
    const at = `${path}.matchLabelExpressions[${i}]`;
    const e = isObj(expr) ? expr : {};
    const values = list(e.values).map(str);
    if (values.length === 0) causes.push(required(`${at}.values`));
    const set = new Set<string>();
    values.forEach((v, j) => {
      if (set.has(v)) causes.push(duplicate(`${at}.values[${j}]`, v));
      set.add(v);
    });
    const key = str(e.key);
    causes.push(...validateLabelName(key, `${at}.key`));
    if (raw.has(key)) causes.push(duplicate(`${at}.key`, key));
    raw.set(key, set);
  });
  return raw;
}

const sameTerm = (a: RawTerm, b: RawTerm): boolean =>
  a.size === b.size && [...a].every(([k, v]) => {
    const w = b.get(k);
    return w !== undefined && w.size === v.size && [...v].every((x) => w.has(x));
  });

function validateAllowedTopologies(terms: unknown, causes: StatusCause[]): void {
  const all = list(terms);
  // upstream's seen terms start as len(terms) nil maps, which its Semantic.DeepEqual takes as empty ones
  const seen: RawTerm[] = all.map(() => new Map());
  all.forEach((term, i) => {
    const raw = validateTopologyTerm(term, `allowedTopologies[${i}]`, causes);
    for (const t of seen) if (sameTerm(raw, t)) causes.push(duplicate(`allowedTopologies[${i}].matchLabelExpressions`, ''));
    seen.push(raw);
  });
}

/** GetWarningsForStorageClass: deprecated node labels as allowedTopologies keys. */
function storageClassWarnings(sc: KubeObject): string[] {
  const out: string[] = [];
  list(sc.allowedTopologies).forEach((term, i) => list(isObj(term) ? term.matchLabelExpressions : undefined).forEach((e, j) => {
    const msg = nodeLabelDeprecation(str(isObj(e) ? e.key : undefined));
    if (msg) out.push(`allowedTopologies[${i}].matchLabelExpressions[${j}].key: ${msg}`);
  }));
  return out;
}

/** reflect.DeepEqual of two map[string]string, an absent map equal to an empty one (as stored objects have them). */
function sameParameters(a: unknown, b: unknown): boolean {
  const x = isObj(a) ? a : {};
  const y = isObj(b) ? b : {};
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && x[k] === y[k]);
}

export const storageClassStrategy: Strategy = {
  validate(sc) {
    const causes: StatusCause[] = [];
    const provisioner = typeof sc.provisioner === 'string' ? sc.provisioner : '';
    if (provisioner === '') causes.push(required('provisioner'));
    else {
      const lower = provisioner.toLowerCase();
      for (const m of isQualifiedName(lower)) causes.push(invalidValue('provisioner', lower, m));
    }
    validateParameters(sc.parameters, causes);
    const reclaim = sc.reclaimPolicy;
    if (typeof reclaim === 'string' && reclaim !== '' && !RECLAIM_POLICIES.includes(reclaim)) causes.push(notSupported('reclaimPolicy', reclaim, RECLAIM_POLICIES));
    const mode = sc.volumeBindingMode;
    if (mode === undefined || mode === null) causes.push(required('volumeBindingMode'));
    else if (!BINDING_MODES.includes(mode)) causes.push(notSupported('volumeBindingMode', mode, BINDING_MODES));
    validateAllowedTopologies(sc.allowedTopologies, causes);
    return causes;
  },
  validateUpdate(sc, old) {
    const causes: StatusCause[] = [];
    if (!sameParameters(sc.parameters, old.parameters)) causes.push(forbidden('parameters', 'updates to parameters are forbidden.'));
    if ((sc.provisioner ?? '') !== (old.provisioner ?? '')) causes.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
    if ((sc.reclaimPolicy ?? '') !== (old.reclaimPolicy ?? '')) causes.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
    if ((sc.volumeBindingMode ?? null) !== (old.volumeBindingMode ?? null)) causes.push(invalidValue('volumeBindingMode', sc.volumeBindingMode ?? null, 'field is immutable'));
    return causes;
  },
  warningsOnCreate: storageClassWarnings,
  warningsOnUpdate: storageClassWarnings,
};
