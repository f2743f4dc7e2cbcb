// The containers of a pod spec, as upstream's validateContainers, validateInitContainers and
// validateEphemeralContainers check them (pkg/apis/core/validation/validation.go), with 1.32's default feature gates:
// sidecars (init containers with restartPolicy Always) on; in-place resize off, so resizePolicy is not checked (upstream
// drops it before validation); resource claims off likewise.
//
// The parts: ports.ts, env.ts, volume-mounts.ts, resources.ts, probes.ts, security-context.ts.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notFound, notSupported, required } from '../../apimachinery/field.js';
import { validateEnv, validateEnvFrom } from './env.js';
import { validateContainerPorts, validateHostPortConflicts } from './ports.js';
import { validateContainerProbe, validateLifecycle } from './probes.js';
import { validateContainerResources } from './resources.js';
import { validateContainerSecurityContext } from './security-context.js';
import { checkDNSLabel, isObj, list, requireSchemaField, str } from './field-checks.js';
import { isSet } from './shapes.js';
import { validateContainerVolumes } from './volume-mounts.js';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const NOT_FOR_EPHEMERAL = 'cannot be set for an Ephemeral Container';
const NOT_FOR_INIT = 'may not be set for init containers without restartPolicy=Always';

/**
 * The fields of an ephemeral container that upstream's allow-list refuses, in the order of its Go struct: a Go value
 * other than the zero one is "set". `resources` is a struct: set when it has limits, requests or claims.
 */
const EPHEMERAL_FORBIDDEN: readonly [string, (v: unknown) => boolean][] = [
  ['ports', isSet],
  ['resources', (v) => isObj(v) && (isSet(v.limits) || isSet(v.requests) || isSet(v.claims))],
  ['resizePolicy', isSet],
  ['restartPolicy', isSet],
  ['livenessProbe', isSet],
  ['readinessProbe', isSet],
  ['startupProbe', isSet],
  ['lifecycle', isSet],
];

/** validateContainerCommon: what every kind of container is checked for. */
function validateContainerCommon(c: KubeObject, volumes: ReadonlyMap<string, KubeObject>, path: string, out: StatusCause[]): void {
  const name = str(c.name);
  if (name === '') requireSchemaField(out, `${path}.name`, c.name);
  else checkDNSLabel(out, `${path}.name`, name);
  if (str(c.image) === '') out.push(required(`${path}.image`));
  const messagePolicy = str(c.terminationMessagePolicy);
  if (messagePolicy === '') out.push(required(`${path}.terminationMessagePolicy`));
  else if (!MESSAGE_POLICIES.includes(messagePolicy)) out.push(notSupported(`${path}.terminationMessagePolicy`, messagePolicy, MESSAGE_POLICIES));
  if (c.ports !== undefined) validateContainerPorts(c.ports, `${path}.ports`, out);
  if (c.env !== undefined) validateEnv(c.env, `${path}.env`, out);
  if (c.envFrom !== undefined) validateEnvFrom(c.envFrom, `${path}.envFrom`, out);
  validateContainerVolumes(c, volumes, path, out);
  const pullPolicy = str(c.imagePullPolicy);
  if (pullPolicy === '') out.push(required(`${path}.imagePullPolicy`));
  else if (!PULL_POLICIES.includes(pullPolicy)) out.push(notSupported(`${path}.imagePullPolicy`, pullPolicy, PULL_POLICIES));
  if (c.resources !== undefined) validateContainerResources(c.resources, `${path}.resources`, out);
  if (c.securityContext !== undefined) validateContainerSecurityContext(c.securityContext, `${path}.securityContext`, out);
}

/** The probes of a container that may have them (a regular one, a sidecar). */
function validateProbesAndLifecycle(c: KubeObject, gracePeriod: number | undefined, path: string, out: StatusCause[]): void {
  if (isSet(c.lifecycle)) validateLifecycle(c.lifecycle, gracePeriod, `${path}.lifecycle`, out);
  validateContainerProbe('livenessProbe', c.livenessProbe, gracePeriod, `${path}.livenessProbe`, out);
  validateContainerProbe('readinessProbe', c.readinessProbe, gracePeriod, `${path}.readinessProbe`, out);
  validateContainerProbe('startupProbe', c.startupProbe, gracePeriod, `${path}.startupProbe`, out);
}

function validateRegularContainers(containers: readonly unknown[], volumes: ReadonlyMap<string, KubeObject>, gracePeriod: number | undefined,
  path: string, out: StatusCause[]): void {
  const names = new Set<string>();
  containers.forEach((c, i) => {
    if (!isObj(c)) return;
    const at = `${path}[${i}]`;
    validateContainerCommon(c, volumes, at, out);
    // collisions with init and ephemeral containers are reported on those
    const name = str(c.name);
    if (names.has(name)) out.push(duplicate(`${at}.name`, name));
    else names.add(name);
    validateProbesAndLifecycle(c, gracePeriod, at, out);
    if (isSet(c.restartPolicy)) out.push(forbidden(`${at}.restartPolicy`, 'may not be set for non-init containers'));
  });
  validateHostPortConflicts(containers, path, out);
}

function validateInitContainers(initContainers: readonly unknown[], containers: readonly unknown[], volumes: ReadonlyMap<string, KubeObject>,
  gracePeriod: number | undefined, path: string, out: StatusCause[]): void {
  const names = new Set<string>();
  for (const c of containers) if (isObj(c)) names.add(str(c.name));
  initContainers.forEach((c, i) => {
    if (!isObj(c)) return;
    const at = `${path}[${i}]`;
    validateContainerCommon(c, volumes, at, out);
    let restartAlways = false;
    if (isSet(c.restartPolicy)) {
      const policy = str(c.restartPolicy);
      if (policy !== 'Always') out.push(notSupported(`${at}.restartPolicy`, policy, ['Always']));
      restartAlways = policy === 'Always';
    }
    const name = str(c.name);
    if (names.has(name)) out.push(duplicate(`${at}.name`, name));
    else if (name.length > 0) names.add(name);
    // init containers run one by one: each is checked alone for host ports
    validateHostPortConflicts([c], path, out);
    if (restartAlways) {
      validateProbesAndLifecycle(c, gracePeriod, at, out);
    } else {
      for (const key of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (isSet(c[key])) out.push(forbidden(`${at}.${key}`, NOT_FOR_INIT));
      }
    }
  });
}

/** validateContainerOnlyForPod: a pod's image (not a template's: " " is a placeholder in some of those) is trimmed. */
function validateImageSpaces(c: KubeObject, path: string, out: StatusCause[]): void {
  const image = str(c.image);
  if (image.length !== image.trim().length) out.push(invalidValue(`${path}.image`, image, 'must not have leading or trailing whitespace'));
}

function validateEphemeralContainers(ephemeral: readonly unknown[], containers: readonly unknown[], initContainers: readonly unknown[],
  volumes: ReadonlyMap<string, KubeObject>, path: string, out: StatusCause[]): void {
  const others = new Set<string>();
  for (const c of containers) if (isObj(c)) others.add(str(c.name));
  for (const c of initContainers) if (isObj(c)) others.add(str(c.name));
  const names = new Set(others);
  ephemeral.forEach((ec, i) => {
    if (!isObj(ec)) return;
    const at = `${path}[${i}]`;
    validateContainerCommon(ec, volumes, at, out);
    validateImageSpaces(ec, at, out);
    const name = str(ec.name);
    if (names.has(name)) out.push(duplicate(`${at}.name`, name));
    else names.add(name);
    const target = str(ec.targetContainerName);
    if (target !== '' && !others.has(target)) out.push(notFound(`${at}.targetContainerName`, target));
    // they must not become part of the workload: no ports, resources, probes or lifecycle
    for (const [key, isGoSet] of EPHEMERAL_FORBIDDEN) if (isGoSet(ec[key])) out.push(forbidden(`${at}.${key}`, NOT_FOR_EPHEMERAL));
    // sub paths are bind mounts, which would stay until the pod ends
    list(ec.volumeMounts).forEach((m, j) => {
      if (!isObj(m)) return;
      if (str(m.subPath) !== '') out.push(forbidden(`${at}.volumeMounts[${j}].subPath`, NOT_FOR_EPHEMERAL));
      if (str(m.subPathExpr) !== '') out.push(forbidden(`${at}.volumeMounts[${j}].subPathExpr`, NOT_FOR_EPHEMERAL));
    });
  });
}

/**
 * Causes for every container of the pod spec at `path` (initContainers, containers, ephemeralContainers), named as
 * upstream names them (`spec.containers[0].ports[0].containerPort`). `volumes` maps the names spec.volumes declares
 * to their volumes: a volumeMount or volumeDevice must name one.
 *
 * A pod's spec (`path` "spec") also has its containers' images checked for surrounding spaces, which upstream reports
 * after the rest of the pod spec (here: after the other container causes). An empty `containers` is the pod spec's
 * rule, not this one's.
 */
export function validateContainers(spec: KubeObject, path: string, volumes: ReadonlyMap<string, KubeObject>): StatusCause[] {
  const out: StatusCause[] = [];
  if (!isObj(spec)) return out;
  const containers = list(spec.containers);
  const initContainers = list(spec.initContainers);
  const ephemeral = list(spec.ephemeralContainers);
  const grace: unknown = spec.terminationGracePeriodSeconds;
  const gracePeriod = typeof grace === 'number' ? grace : undefined;
  validateRegularContainers(containers, volumes, gracePeriod, `${path}.containers`, out);
  if (initContainers.length) validateInitContainers(initContainers, containers, volumes, gracePeriod, `${path}.initContainers`, out);
  if (ephemeral.length) validateEphemeralContainers(ephemeral, containers, initContainers, volumes, `${path}.ephemeralContainers`, out);
  if (path === 'spec') {
    containers.forEach((c, i) => { if (isObj(c)) validateImageSpaces(c, `${path}.containers[${i}]`, out); });
    initContainers.forEach((c, i) => { if (isObj(c)) validateImageSpaces(c, `${path}.initContainers[${i}]`, out); });
  }
  return out;
}
