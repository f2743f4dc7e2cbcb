// Upstream 1.32's warnings for a pod spec and its metadata (pkg/api/pod/warnings.go, warningsForPodSpecAndMeta):
// deprecated node labels, annotations and volume plugins, duplicated entries, fractional byte quantities, seccomp
// and AppArmor annotations without their fields, overlapping ports, selectors that match nothing. A pod's come
// without a prefix (GetWarningsForPod); a template's are prefixed with where it sits (GetWarningsForPodTemplate,
// `spec.template`). Go maps are walked in random order upstream; here keys come in the order they were written.
import type { KubeObject } from '../../../api/types.js';
import { formatQuantity, parseQuantity } from '../../apimachinery/quantity.js';
import { asObj, isObj, list, num, str } from '../validation/field-checks.js';
import { goQuote } from '../validation/go-values.js';
import { eachContainer } from '../validation/pod-security.js';
import { overlappingPathWarnings } from './volume-path-warnings.js';
import { SECCOMP_CONTAINER_ANNOTATION_PREFIX, SECCOMP_POD_ANNOTATION } from '../../../api/core/v1/annotations.js';

/** pkg/api/node's deprecatedNodeLabels. */
const DEPRECATED_NODE_LABELS: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
  'app.kubernetes.io/created-by': 'deprecated since v1.9',
  'scheduler.alpha.kubernetes.io/preferAvoidPods': 'deprecated since v1.22; use Taints and Tolerations instead',
  'node-role.kubernetes.io/master': 'use "node-role.kubernetes.io/control-plane" instead',
};

/** pkg/api/node's GetNodeLabelDeprecatedMessage: why the node label `key` is deprecated, or undefined. */
export const nodeLabelDeprecation = (key: string): string | undefined => (Object.hasOwn(DEPRECATED_NODE_LABELS, key) ? DEPRECATED_NODE_LABELS[key] : undefined);

const DEPRECATED_ANNOTATIONS: readonly [string, string][] = [
  ['scheduler.alpha.kubernetes.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.kubernetes.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.kubernetes.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

/** Volume plugins deprecated or gone, in the order upstream looks at them (ephemeral's claim falls between). */
const DEPRECATED_VOLUMES: readonly [string, string][] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageos', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
];
const DEPRECATED_SINCE_1_28: readonly string[] = ['cephfs', 'rbd'];
const PLUGIN_DEPRECATIONS = new Map<string, string>([
  ...DEPRECATED_VOLUMES, ...DEPRECATED_SINCE_1_28.map((p): [string, string] => [p, 'deprecated in v1.28, non-functional in v1.31+']),
]);
/** Upstream names the storageos plugin by its Go field (storageOS) in the warning, not by its JSON name. */
const VOLUME_FIELD_NAMES: Readonly<Record<string, string>> = { storageos: 'storageOS' };

/** The warning for a deprecated or gone volume plugin (one of the above) set under `path`: a pod's volume or a PV's spec. */
export const volumePluginWarning = (plugin: string, path: string): string =>
  `${path}.${VOLUME_FIELD_NAMES[plugin] ?? plugin}: ${PLUGIN_DEPRECATIONS.get(plugin)}`;

const APPARMOR_CONTAINER_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const SECCOMP_FIELD = 'non-functional in v1.27+; use the "seccompProfile" field instead';

/** field.Path's String of `prefix` + `rest`: a template's fields sit under it, a pod's at the root. */
const at = (prefix: string | undefined, rest: string): string => (prefix ? `${prefix}.${rest}` : rest);

/**
 * A byte quantity whose MilliValue() (rounded away from zero) is no whole number of bytes, in its canonical form
 * (Quantity.String(): "0.1" is "100m"); undefined for a whole one, or one that does not parse (validation's to refuse).
 */
function fractionalBytes(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  let q;
  try {
    q = parseQuantity(String(value));
  } catch {
    return undefined;
  }
  const rest = q.nanos % 1_000_000n;
  const milli = q.nanos / 1_000_000n + (rest > 0n ? 1n : rest < 0n ? -1n : 0n);
  return milli % 1000n === 0n ? undefined : formatQuantity(q);
}

function fractionalWarning(resources: unknown, resource: string, path: string): string[] {
  const value = fractionalBytes(asObj(resources)?.[resource]);
  return value === undefined ? [] : [`${path}[${resource}]: fractional byte value ${goQuote(value)} is invalid, must be an integer`];
}

/** pvcutil.GetWarningsForPersistentVolumeClaimSpec: fractional storage requests and limits. */
export function pvcSpecWarnings(spec: unknown, path: string): string[] {
  const resources = asObj(asObj(spec)?.resources);
  return [
    ...fractionalWarning(resources?.requests, 'storage', `${path}.resources.requests`),
    ...fractionalWarning(resources?.limits, 'storage', `${path}.resources.limits`),
  ];
}

/** nodeapi.GetWarningsForNodeSelectorTerm: deprecated labels among a term's matchExpressions keys. */
export function nodeSelectorTermWarnings(term: unknown, path: string): string[] {
  const out: string[] = [];
  list(asObj(term)?.matchExpressions).forEach((e, i) => {
    const key = str(asObj(e)?.key);
    const msg = nodeLabelDeprecation(key);
    if (msg) out.push(`${path}.matchExpressions[${i}].key: ${key} is ${msg}`);
  });
  return out;
}

const isNull = (v: unknown): boolean => v === undefined || v === null;

function podAffinityWarnings(affinity: KubeObject | undefined, kind: 'podAffinity' | 'podAntiAffinity', spec: string): string[] {
  const rules = asObj(affinity?.[kind]);
  if (!rules) return [];
  const out: string[] = [];
  const base = `${spec}.affinity.${kind}`;
  list(rules.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
    if (isNull(asObj(t)?.labelSelector)) out.push(`${base}.requiredDuringSchedulingIgnoredDuringExecution[${i}].labelSelector: a null labelSelector results in matching no pod`);
  });
  list(rules.preferredDuringSchedulingIgnoredDuringExecution).forEach((w, i) => {
    if (isNull(asObj(asObj(w)?.podAffinityTerm)?.labelSelector)) {
      out.push(`${base}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod`);
    }
  });
  return out;
}

function volumeWarnings(volumes: readonly unknown[], spec: string): string[] {
  const out: string[] = [];
  volumes.forEach((raw, i) => {
    const v = asObj(raw);
    if (!v) return;
    const path = `${spec}.volumes[${i}]`;
    for (const [plugin] of DEPRECATED_VOLUMES) if (!isNull(v[plugin])) out.push(volumePluginWarning(plugin, path));
    const claim = asObj(asObj(v.ephemeral)?.volumeClaimTemplate);
    if (claim) out.push(...pvcSpecWarnings(claim.spec, `${path}.ephemeral.volumeClaimTemplate.spec`));
    for (const plugin of DEPRECATED_SINCE_1_28) if (!isNull(v[plugin])) out.push(volumePluginWarning(plugin, path));
  });
  return out;
}

/** Entries of `items` whose `key` an earlier one already had (hostAliases' ip, imagePullSecrets' name). */
function duplicates(items: readonly unknown[], key: string, path: string, what: string): string[] {
  if (items.length < 2) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  items.forEach((item, i) => {
    const value = str(asObj(item)?.[key]);
    if (seen.has(value)) out.push(`${path}[${i}].${key}: duplicate ${what} ${goQuote(value)}`);
    else seen.add(value);
  });
  return out;
}

/** An env var that hides an earlier one of its name, unless its value refers to it ("$(X) more"). */
function envWarnings(env: readonly unknown[], path: string): string[] {
  if (env.length < 2) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  env.forEach((raw, i) => {
    const item = asObj(raw) ?? {};
    const name = str(item.name);
    if (!seen.has(name)) {
      seen.add(name);
      return;
    }
    const ref = `$(${name})`;
    const value = str(item.value);
    if (!isNull(item.valueFrom) || value === ref || !value.includes(ref)) {
      out.push(`${path}.env[${i}]: hides previous definition of ${goQuote(name)}, which may be dropped when using apply`);
    }
  });
  return out;
}

interface Port { name: string; hostPort: number; containerPort: number; protocol: string; hostIP: string }

const portOf = (raw: unknown): Port => {
  const p = asObj(raw) ?? {};
  return { name: str(p.name), hostPort: num(p.hostPort) ?? 0, containerPort: num(p.containerPort) ?? 0, protocol: str(p.protocol), hostIP: str(p.hostIP) };
};

/** The ports of all containers against each other: the same container port and protocol seen twice. */
function portWarnings(spec: KubeObject, specPath: string): string[] {
  const out: string[] = [];
  const byPort = new Map<string, { field: string; port: Port }[]>();
  eachContainer(spec, specPath, (c, path) => {
    list(c.ports).forEach((raw, i) => {
      const port = portOf(raw);
      const field = `${path}.ports[${i}]`;
      if (port.hostIP !== '' && port.hostPort === 0) {
        out.push(`${field}: hostIP set without hostPort: {Name:${port.name} HostPort:${port.hostPort} ContainerPort:${port.containerPort} Protocol:${port.protocol} HostIP:${port.hostIP}}`);
      }
      const key = `${port.containerPort}/${port.protocol}`;
      const others = byPort.get(key) ?? [];
      for (const other of others) {
        if (port.hostIP === other.port.hostIP && port.hostPort === other.port.hostPort) {
          out.push(`${field}: duplicate port definition with ${other.field}`);
        } else if (port.hostPort === 0 || other.port.hostPort === 0) {
          out.push(`${field}: overlapping port definition with ${other.field}`);
        } else if (port.hostPort === other.port.hostPort && (port.hostIP === '') !== (other.port.hostIP === '')) {
          out.push(`${field}: dangerously ambiguous port definition with ${other.field}`);
        }
      }
      byPort.set(key, [...others, { field, port }]);
    });
  });
  return out;
}

/** warningsForPodSpecAndMeta; `prefix` undefined for a pod, the template's path for a template. */
function specAndMetaWarnings(specRaw: unknown, metaRaw: unknown, prefix: string | undefined): string[] {
  const spec = asObj(specRaw) ?? {};
  const annotations = asObj(asObj(metaRaw)?.annotations) ?? {};
  const specPath = at(prefix, 'spec');
  const annotationPath = (key: string): string => `${at(prefix, 'metadata.annotations')}[${key}]`;
  const out: string[] = [];

  for (const key of Object.keys(asObj(spec.nodeSelector) ?? {})) {
    const msg = nodeLabelDeprecation(key);
    if (msg) out.push(`${specPath}.nodeSelector[${key}]: ${msg}`);
  }
  const affinity = asObj(spec.affinity);
  const nodeAffinity = asObj(affinity?.nodeAffinity);
  if (nodeAffinity) {
    const base = `${specPath}.affinity.nodeAffinity`;
    const required = asObj(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution);
    if (required) {
      list(required.nodeSelectorTerms).forEach((t, i) => out.push(...nodeSelectorTermWarnings(t, `${base}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`)));
    }
    list(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((p, i) => {
      out.push(...nodeSelectorTermWarnings(asObj(p)?.preference, `${base}.preferredDuringSchedulingIgnoredDuringExecution[${i}].preference`));
    });
  }
  list(spec.topologySpreadConstraints).forEach((raw, i) => {
    const t = asObj(raw) ?? {};
    const key = str(t.topologyKey);
    const msg = nodeLabelDeprecation(key);
    if (msg) out.push(`${specPath}.topologySpreadConstraints[${i}].topologyKey: ${key} is ${msg}`);
    if (isNull(t.labelSelector)) out.push(`${specPath}.topologySpreadConstraints[${i}].labelSelector: a null labelSelector results in matching no pod`);
  });

  for (const [key, msg] of DEPRECATED_ANNOTATIONS) if (Object.hasOwn(annotations, key)) out.push(`${annotationPath(key)}: ${msg}`);

  const volumes = list(spec.volumes);
  out.push(...volumeWarnings(volumes, specPath), ...overlappingPathWarnings(volumes));
  out.push(...duplicates(list(spec.hostAliases), 'ip', `${specPath}.hostAliases`, 'ip'));
  const pullSecrets = list(spec.imagePullSecrets);
  out.push(...duplicates(pullSecrets, 'name', `${specPath}.imagePullSecrets`, 'name'));
  pullSecrets.forEach((s, i) => {
    if (str(asObj(s)?.name) === '') out.push(`${specPath}.imagePullSecrets[${i}].name: invalid empty name ""`);
  });
  out.push(...fractionalWarning(spec.overhead, 'memory', `${specPath}.overhead`), ...fractionalWarning(spec.overhead, 'ephemeral-storage', `${specPath}.overhead`));

  const podSecurity = asObj(spec.securityContext);
  if (isNull(podSecurity?.seccompProfile) && Object.hasOwn(annotations, SECCOMP_POD_ANNOTATION)) out.push(`${annotationPath(SECCOMP_POD_ANNOTATION)}: ${SECCOMP_FIELD}`);
  const podAppArmor = !isNull(podSecurity?.appArmorProfile);
  eachContainer(spec, specPath, (c, path) => {
    const name = str(c.name);
    const security = asObj(c.securityContext);
    const seccomp = SECCOMP_CONTAINER_ANNOTATION_PREFIX + name;
    if (isNull(security?.seccompProfile) && Object.hasOwn(annotations, seccomp)) out.push(`${annotationPath(seccomp)}: ${SECCOMP_FIELD}`);
    // a pod's AppArmor annotations are warned of as they are copied to its fields (pod-apparmor.ts)
    const appArmor = APPARMOR_CONTAINER_ANNOTATION_PREFIX + name;
    if (prefix !== undefined && !podAppArmor && isNull(security?.appArmorProfile) && Object.hasOwn(annotations, appArmor)) {
      out.push(`${annotationPath(appArmor)}: deprecated since v1.30; use the "appArmorProfile" field instead`);
    }
    const resources = asObj(c.resources);
    out.push(
      ...fractionalWarning(resources?.limits, 'memory', `${path}.resources.limits`),
      ...fractionalWarning(resources?.requests, 'memory', `${path}.resources.requests`),
      ...fractionalWarning(resources?.limits, 'ephemeral-storage', `${path}.resources.limits`),
      ...fractionalWarning(resources?.requests, 'ephemeral-storage', `${path}.resources.requests`),
      ...envWarnings(list(c.env), path),
    );
  });
  out.push(...portWarnings(spec, specPath));

  const grace = num(spec.terminationGracePeriodSeconds);
  if (grace !== undefined && grace < 0) out.push(`${specPath}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  out.push(...podAffinityWarnings(affinity, 'podAffinity', specPath), ...podAffinityWarnings(affinity, 'podAntiAffinity', specPath));
  return out;
}

/** GetWarningsForPod. */
export const podWarnings = (pod: KubeObject): string[] => specAndMetaWarnings(pod.spec, pod.metadata, undefined);

/** GetWarningsForPodTemplate of the template at `path` (none for a template that is absent). */
export const podTemplateWarnings = (template: unknown, path: string): string[] =>
  (isObj(template) ? specAndMetaWarnings(template.spec, template.metadata, path) : []);
