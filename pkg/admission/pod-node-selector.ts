// PodNodeSelector: a new pod's nodeSelector takes in its namespace's node selector (the namespace annotation, else the
// cluster default of the plugin's configuration) and must stay within the namespace's whitelist from that
// configuration (upstream: plugin/pkg/admission/podnodeselector).
import { internalError } from '../apimachinery/errors.js';
import { isQualifiedName, isValidLabelValue } from '../apimachinery/names.js';
import type { AdmissionDeps } from './deps.js';
import { admissionForbidden, plainError } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';
import { isPodCreateOrUpdate } from './pod-helpers.js';

export const NODE_SELECTOR_ANNOTATION = 'scheduler.alpha.kubernetes.io/node-selector';
const CLUSTER_DEFAULT = 'clusterDefaultNodeSelector';

type LabelSet = Record<string, string>;

/**
 * The plugin's file: `podNodeSelectorPluginConfig: {clusterDefaultNodeSelector: "...", <namespace>: "..."}`, read
 * as upstream's lenient decoder does (the key matched without regard to case, anything but strings ignored).
 */
export function readNodeSelectorConfig(c: Record<string, unknown> | undefined): Map<string, string> {
  const key = Object.keys(c ?? {}).find((k) => k.toLowerCase() === 'podnodeselectorpluginconfig');
  const raw = key ? c![key] : undefined;
  if (!raw || typeof raw !== 'object') return new Map();
  return new Map(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Upstream's labels.ConvertSelectorToLabelsMap: `a=b,c=d` only, keys and values checked as labels'. */
export function selectorToLabels(selector: string): LabelSet {
  const out: LabelSet = {};
  if (!selector) return out;
  for (const term of selector.split(',')) {
    const parts = term.split('=');
    if (parts.length !== 2) throw plainError(`invalid selector: [${parts.join(' ')}]`);
    const key = parts[0]!.trim();
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) throw plainError(`<nil>: Invalid value: ${JSON.stringify(key)}: ${keyErrs.join('; ')}`);
    const value = parts[1]!.trim();
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length) throw plainError(`[${key}]: Invalid value: ${JSON.stringify(value)}: ${valueErrs.join('; ')}`);
    out[key] = value;
  }
  return out;
}

const conflicts = (a: LabelSet, b: LabelSet): boolean => Object.entries(a).some(([k, v]) => Object.hasOwn(b, k) && b[k] !== v);

export class PodNodeSelector implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'PodNodeSelector';

  /** `selectors`: the configuration's clusterDefaultNodeSelector and per-namespace whitelists. */
  constructor(private readonly deps: Pick<AdmissionDeps, 'get'>, private readonly selectors: Map<string, string> = new Map()) {}

  admit(a: AdmissionAttributes): void {
    if (ignore(a)) return;
    const spec = (a.object!.spec ??= {});
    const own: LabelSet = spec.nodeSelector ?? {};
    const fromNamespace = this.checkedNamespaceSelector(a, own);
    // The pod's own values win (they agree anyway, or the check above refused).
    const merged = { ...fromNamespace, ...own };
    if (Object.keys(merged).length) spec.nodeSelector = merged;
    this.validate(a);
  }

  validate(a: AdmissionAttributes): void {
    if (ignore(a)) return;
    const own: LabelSet = a.object!.spec?.nodeSelector ?? {};
    this.checkedNamespaceSelector(a, own);
    const whitelist = selectorToLabels(this.selectors.get(a.namespace ?? '') ?? '');
    const allowed = Object.keys(whitelist).length === 0 || Object.entries(own).every(([k, v]) => Object.hasOwn(whitelist, k) && whitelist[k] === v);
    if (!allowed) throw admissionForbidden(a, 'pod node label selector labels conflict with its namespace whitelist');
  }

  /** The namespace's node selector, refused when it gives one of the pod's keys another value. */
  private checkedNamespaceSelector(a: AdmissionAttributes, own: LabelSet): LabelSet {
    const ns = this.deps.get('', 'namespaces', undefined, a.namespace ?? '');
    if (!ns) throw internalError(`namespace ${a.namespace ?? ''} does not exist`);
    const annotation: string | undefined = ns.metadata?.annotations?.[NODE_SELECTOR_ANNOTATION];
    const selector = selectorToLabels(annotation ?? this.selectors.get(CLUSTER_DEFAULT) ?? '');
    if (conflicts(selector, own)) throw admissionForbidden(a, 'pod node label selector conflicts with its namespace node label selector');
    return selector;
  }
}

const ignore = (a: AdmissionAttributes): boolean => a.operation !== 'CREATE' || !isPodCreateOrUpdate(a.resource, a.subresource) || !a.object;
