// LimitRanger: containers without requests or limits get the defaults of the namespace's
// LimitRanges, then every Container, Pod and PersistentVolumeClaim limit is enforced: min, max and
// maxLimitRequestRatio, with upstream's messages (plugin/pkg/admission/limitranger).
import type { KubeObject } from '../../api/types.js';
import { compareQuantity, type Quantity } from '../apimachinery/quantity.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, aggregate, isResource } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';
import { parseList, podResources, q2s, type ResourceList } from './resources.js';

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

export class LimitRanger implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'LimitRanger';

  constructor(private readonly deps: Pick<AdmissionDeps, 'list'>) {}

  admit(a: AdmissionAttributes): void {
    if (!supports(a) || !isResource(a, '', 'pods')) return;
    const ranges = this.ranges(a);
    if (ranges.length === 0) return;
    const pod = a.object!;
    for (const lr of ranges) {
      const items = ((lr.spec?.limits ?? []) as KubeObject[]).filter((l) => l.type === 'Container');
      if (items.length === 0) continue;
      const defaults = { limits: {} as Record<string, string>, requests: {} as Record<string, string> };
      for (const item of items) {
        Object.assign(defaults.limits, item.default ?? {});
        Object.assign(defaults.requests, item.defaultRequest ?? {});
      }
      const notes: string[] = [];
      // containers first, then init containers, as upstream's mergePodResourceRequirements words its annotation
      for (const [kind, label] of [['containers', 'container'], ['initContainers', 'init container']] as const) {
        for (const c of (pod.spec?.[kind] ?? []) as KubeObject[]) notes.push(...mergeDefaults(c, defaults, label));
      }
      if (notes.length) {
        pod.metadata ??= {};
        pod.metadata.annotations = { ...pod.metadata.annotations, [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };
      }
    }
  }

  validate(a: AdmissionAttributes): void {
    if (!supports(a)) return;
    const ranges = this.ranges(a);
    const errs: string[] = [];
    for (const lr of ranges) {
      for (const item of (lr.spec?.limits ?? []) as KubeObject[]) {
        if (isResource(a, '', 'pods')) errs.push(...validatePod(item, a.object!));
        else errs.push(...validatePvc(item, a.object!));
      }
    }
    const unique = [...new Set(errs)];
    if (unique.length) throw admissionForbidden(a, aggregate(unique));
  }

  private ranges(a: AdmissionAttributes): KubeObject[] {
    return a.namespace ? this.deps.list('', 'limitranges', a.namespace) : [];
  }
}

/** Pods on create (their containers are immutable after), PersistentVolumeClaims on create and update. */
function supports(a: AdmissionAttributes): boolean {
  if (a.subresource || !a.object) return false;
  if (isResource(a, '', 'pods')) return a.operation === 'CREATE';
  return isResource(a, '', 'persistentvolumeclaims') && (a.operation === 'CREATE' || a.operation === 'UPDATE');
}

function mergeDefaults(c: KubeObject, defaults: { limits: Record<string, string>; requests: Record<string, string> }, label: string): string[] {
  const res = (c.resources ??= {});
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(defaults.limits)) {
    if (res.limits?.[k] === undefined) {
      res.limits = { ...res.limits, [k]: v };
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(defaults.requests)) {
    if (res.requests?.[k] === undefined) {
      res.requests = { ...res.requests, [k]: v };
      setRequests.push(k);
    }
  }
  const notes: string[] = [];
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${label} ${c.name}`);
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${label} ${c.name}`);
  return notes;
}

function validatePod(item: KubeObject, pod: KubeObject): string[] {
  const errs: string[] = [];
  const type = item.type as string;
  const check = (requests: ResourceList, limits: ResourceList): void => {
    for (const [k, v] of Object.entries(parseList(item.min))) pushIf(errs, minConstraint(type, k, v, requests, limits));
    for (const [k, v] of Object.entries(parseList(item.max))) pushIf(errs, maxConstraint(type, k, v, requests, limits));
    for (const [k, v] of Object.entries(parseList(item.maxLimitRequestRatio))) pushIf(errs, ratioConstraint(type, k, v, requests, limits));
  };
  if (type === 'Container') {
    for (const kind of ['containers', 'initContainers']) {
      for (const c of (pod.spec?.[kind] ?? []) as KubeObject[]) check(parseList(c.resources?.requests), parseList(c.resources?.limits));
    }
  } else if (type === 'Pod') {
    check(podResources(pod.spec, 'requests'), podResources(pod.spec, 'limits'));
  }
  return errs;
}

function validatePvc(item: KubeObject, pvc: KubeObject): string[] {
  if (item.type !== 'PersistentVolumeClaim') return [];
  const errs: string[] = [];
  const requests = parseList(pvc.spec?.resources?.requests);
  for (const [k, v] of Object.entries(parseList(item.min))) pushIf(errs, minConstraint(item.type, k, v, requests, {}));
  for (const [k, v] of Object.entries(parseList(item.max))) {
    const req = requests[k];
    if (!req) errs.push(`maximum ${k} usage per ${item.type} is ${q2s(v)}.  No request is specified`);
    else if (compareQuantity(req, v) > 0) errs.push(`maximum ${k} usage per ${item.type} is ${q2s(v)}, but request is ${q2s(req)}`);
  }
  return errs;
}

const pushIf = (errs: string[], e: string | undefined): void => {
  if (e) errs.push(e);
};

function minConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  if (!req) return `minimum ${name} usage per ${type} is ${q2s(enforced)}.  No request is specified`;
  if (compareQuantity(req, enforced) < 0) return `minimum ${name} usage per ${type} is ${q2s(enforced)}, but request is ${q2s(req)}`;
  if (lim && compareQuantity(lim, enforced) < 0) return `minimum ${name} usage per ${type} is ${q2s(enforced)}, but limit is ${q2s(lim)}`;
  return undefined;
}

function maxConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  if (!lim) return `maximum ${name} usage per ${type} is ${q2s(enforced)}.  No limit is specified`;
  if (compareQuantity(lim, enforced) > 0) return `maximum ${name} usage per ${type} is ${q2s(enforced)}, but limit is ${q2s(lim)}`;
  if (req && compareQuantity(req, enforced) > 0) return `maximum ${name} usage per ${type} is ${q2s(enforced)}, but request is ${q2s(req)}`;
  return undefined;
}

function ratioConstraint(type: string, name: string, enforced: Quantity, requests: ResourceList, limits: ResourceList): string | undefined {
  const req = requests[name];
  const lim = limits[name];
  if (!req || req.nanos === 0n) return `${name} max limit to request ratio per ${type} is ${q2s(enforced)}, but no request is specified or request is 0`;
  if (!lim || lim.nanos === 0n) return `${name} max limit to request ratio per ${type} is ${q2s(enforced)}, but no limit is specified or limit is 0`;
  const ratio = Number(lim.nanos) / Number(req.nanos);
  // lim/req > enforced, compared exactly: lim * 1e9 > enforced * req.
  if (lim.nanos * 1_000_000_000n > enforced.nanos * req.nanos) {
    return `${name} max limit to request ratio per ${type} is ${q2s(enforced)}, but provided ratio is ${ratio.toFixed(6)}`;
  }
  return undefined;
}
