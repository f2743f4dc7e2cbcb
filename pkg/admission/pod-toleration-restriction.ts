// PodTolerationRestriction: a new pod gets its namespace's default tolerations (else the cluster's), a pod that is not
// BestEffort tolerates memory pressure, and a pod's tolerations must be within its namespace's whitelist (else the
// cluster's) (upstream: plugin/pkg/admission/podtolerationrestriction).
import type { KubeObject } from '../../api/types.js';
import { notFound } from '../apimachinery/errors.js';
import { causeToString } from '../apimachinery/field.js';
import { decodeJson } from '../apimachinery/patch/decode.js';
import { expectKind, pluginInitError } from './config.js';
import type { AdmissionDeps } from './deps.js';
import { plainError } from './errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';
import { isPodCreateOrUpdate } from './pod-helpers.js';
import { parseList } from './resources.js';
import { mergeTolerations, toTolerations, validateTolerations, verifyAgainstWhitelist, type Toleration } from './tolerations.js';

const NAME = 'PodTolerationRestriction';
export const DEFAULT_TOLERATIONS_ANNOTATION = 'scheduler.alpha.kubernetes.io/defaultTolerations';
export const TOLERATIONS_WHITELIST_ANNOTATION = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const MEMORY_PRESSURE: Toleration = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

export interface TolerationRestrictionConfig {
  default: Toleration[];
  whitelist: Toleration[];
}

/** The plugin's Configuration (podtolerationrestriction.admission.k8s.io/v1alpha1), checked as upstream does at start. */
export function readTolerationRestrictionConfig(c: Record<string, unknown> | undefined): TolerationRestrictionConfig {
  if (!c) return { default: [], whitelist: [] };
  expectKind(NAME, c, 'Configuration', ['podtolerationrestriction.admission.k8s.io/v1alpha1']);
  let config: TolerationRestrictionConfig;
  try {
    config = { default: toTolerations(c.default), whitelist: toTolerations(c.whitelist) };
  } catch (err) {
    throw pluginInitError(NAME, (err as Error).message);
  }
  const causes = [...validateTolerations(config.default, 'podtolerationrestriction.default'), ...validateTolerations(config.whitelist, 'podtolerationrestriction.whitelist')];
  if (causes.length) throw pluginInitError(NAME, `invalid config: [${causes.map(causeToString).join(' ')}]`);
  return config;
}

/** Upstream's GetPodQOS, as far as BestEffort: no container asks for or is limited to any cpu or memory. */
function isBestEffort(pod: KubeObject): boolean {
  if (pod.status?.qosClass) return pod.status.qosClass === 'BestEffort';
  const containers = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])] as KubeObject[];
  return containers.every((c) => [parseList(c.resources?.requests), parseList(c.resources?.limits)]
    .every((list) => ['cpu', 'memory'].every((r) => !list[r] || list[r].nanos <= 0n)));
}

export class PodTolerationRestriction implements MutatingPlugin, ValidatingPlugin {
  readonly name = NAME;

  constructor(private readonly deps: Pick<AdmissionDeps, 'get'>, private readonly config: TolerationRestrictionConfig = { default: [], whitelist: [] }) {}

  admit(a: AdmissionAttributes): void {
    if (ignore(a)) return;
    const spec = (a.object!.spec ??= {});
    const extra: Toleration[] = [];
    if (a.operation === 'CREATE') extra.push(...(this.namespaceTolerations(a, DEFAULT_TOLERATIONS_ANNOTATION) ?? this.config.default));
    if (!isBestEffort(a.object!)) extra.push(MEMORY_PRESSURE);
    if (extra.length) spec.tolerations = mergeTolerations(spec.tolerations ?? [], extra);
    this.validate(a);
  }

  validate(a: AdmissionAttributes): void {
    if (ignore(a)) return;
    const tolerations: Toleration[] = a.object!.spec?.tolerations ?? [];
    if (!tolerations.length) return;
    const own = this.namespaceTolerations(a, TOLERATIONS_WHITELIST_ANNOTATION);
    if (!verifyAgainstWhitelist(tolerations, own ?? this.config.whitelist)) {
      throw plainError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${own ? 'namespace' : 'cluster'} whitelist`);
    }
  }

  /** The namespace's annotation as tolerations: undefined without it, none when it is empty. */
  private namespaceTolerations(a: AdmissionAttributes, key: string): Toleration[] | undefined {
    const ns = this.deps.get('', 'namespaces', undefined, a.namespace ?? '');
    if (!ns) throw notFound({ group: '', resource: 'namespaces' }, a.namespace ?? '');
    const text: string | undefined = ns.metadata?.annotations?.[key];
    if (text === undefined) return undefined;
    if (text === '') return [];
    try {
      return toTolerations(decodeJson(text));
    } catch (err) {
      throw plainError((err as Error).message);
    }
  }
}

const ignore = (a: AdmissionAttributes): boolean =>
  (a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !isPodCreateOrUpdate(a.resource, a.subresource) || !a.object;
