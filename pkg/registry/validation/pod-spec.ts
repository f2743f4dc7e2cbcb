// A pod spec, wherever it appears (a pod, a pod template of a workload), as upstream's ValidatePodSpec checks it
// (pkg/apis/core/validation/validation.go), in its order, with the options of a create: volumes (volumes.ts), the
// containers (container.ts), then the pod's own fields: host network ports, restart and DNS policies, node
// selector, security context (pod-security.ts), affinity and topology spread (affinity.ts), DNS config and host
// aliases (dns.ts), readiness and scheduling gates, names, deadlines, tolerations (tolerations.ts), priority,
// runtime class, overhead and OS.
//
// Not here: what only a pod is checked for (its name in ephemeral volumes' claims, a service account token without
// a service account, ephemeral containers on create: strategies/pods.ts), and what only a template is
// (validation/pod-template.ts). Fields behind feature gates off by default in 1.32 (resourceClaims, pod-level
// resources, hostUsers, supplementalGroupsPolicy, seLinuxChangePolicy) are dropped by upstream before validation
// and not checked.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { validateLabels } from '../../apimachinery/objectmeta.js';
import { validateAffinity, validateTopologySpreadConstraints } from './affinity.js';
import { validateContainers } from './container.js';
import { validateDNSConfig, validateDNSPolicy, validateHostAliases } from './dns.js';
import { checkDNSLabel, checkDNSSubdomain, checkQualifiedName, inclusiveRange, isObj, list, MAX_INT32, num, str } from './field-checks.js';
import { validateOS, validatePodSecurityContext, validateWindowsHostProcess } from './pod-security.js';
import { validateContainerResources } from './resources.js';
import { validateTolerations } from './tolerations.js';
import { validateVolumes } from './volumes.js';

export const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];
const ACTIVE_DEADLINE_RANGE = inclusiveRange(1, MAX_INT32);

/**
 * validatePodHostNetworkDeps: with the host's network, a container's port is the host's port. A pod's host ports
 * were defaulted to its container ports; a template may leave them 0 (its pods will be defaulted).
 */
function validateHostNetworkPorts(spec: KubeObject, path: string, resourceIsPod: boolean, causes: StatusCause[]): void {
  if (spec.hostNetwork !== true) return;
  list(spec.containers).forEach((c, i) => {
    if (!isObj(c)) return;
    list(c.ports).forEach((p, j) => {
      if (!isObj(p)) return;
      const hostPort = num(p.hostPort) ?? 0;
      const containerPort = num(p.containerPort) ?? 0;
      if ((resourceIsPod || hostPort !== 0) && hostPort !== containerPort) {
        causes.push(invalidValue(`${path}.containers[${i}].ports[${j}].hostPort`, hostPort, 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
}

/** A name checked as NameIsDNSSubdomain when set (service account, node, priority class, runtime class). */
function checkOptionalSubdomain(causes: StatusCause[], path: string, value: unknown): void {
  const name = str(value);
  if (name) checkDNSSubdomain(causes, path, name);
}

/** Causes for the pod spec at `path` ("spec", "spec.template.spec"), its containers included. */
export function validatePodSpec(spec: KubeObject, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const resourceIsPod = path === 'spec';
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    causes.push(required(`${path}.terminationGracePeriodSeconds`));
  }
  const volumes = validateVolumes(spec.volumes, `${path}.volumes`, causes);
  // upstream's validateContainers opens with this; the schema check leaves an empty list to it
  if (list(spec.containers).length === 0) causes.push(required(`${path}.containers`));
  const containerCauses = validateContainers(spec, path, volumes);
  for (const c of containerCauses) causes.push(c);

  validateHostNetworkPorts(spec, path, resourceIsPod, causes);
  const restartPolicy = str(spec.restartPolicy);
  if (!restartPolicy) causes.push(required(`${path}.restartPolicy`));
  else if (!RESTART_POLICIES.includes(restartPolicy)) causes.push(notSupported(`${path}.restartPolicy`, restartPolicy, RESTART_POLICIES));
  validateDNSPolicy(spec.dnsPolicy, `${path}.dnsPolicy`, causes);
  if (isObj(spec.nodeSelector)) for (const c of validateLabels(spec.nodeSelector, `${path}.nodeSelector`)) causes.push(c);
  validatePodSecurityContext(spec, path, causes);
  validateAffinity(spec.affinity, `${path}.affinity`, causes);
  validateDNSConfig(spec.dnsConfig, spec.dnsPolicy, `${path}.dnsConfig`, causes);
  list(spec.readinessGates).forEach((g, i) => {
    checkQualifiedName(causes, `${path}.readinessGates[${i}].conditionType`, isObj(g) ? str(g.conditionType) : '');
  });
  const gates = list(spec.schedulingGates);
  if (gates.length > 0) {
    const seen = new Set<string>();
    gates.forEach((g, i) => {
      const name = isObj(g) ? str(g.name) : '';
      checkQualifiedName(causes, `${path}.schedulingGates[${i}]`, name);
      if (seen.has(name)) causes.push(duplicate(`${path}.schedulingGates[${i}]`, name));
      seen.add(name);
    });
  }
  validateTopologySpreadConstraints(spec.topologySpreadConstraints, `${path}.topologySpreadConstraints`, causes);
  validateWindowsHostProcess(spec, path, causes);
  checkOptionalSubdomain(causes, `${path}.serviceAccountName`, spec.serviceAccountName);
  checkOptionalSubdomain(causes, `${path}.nodeName`, spec.nodeName);
  const deadline = num(spec.activeDeadlineSeconds);
  if (deadline !== undefined && (deadline < 1 || deadline > MAX_INT32)) causes.push(invalidValue(`${path}.activeDeadlineSeconds`, deadline, ACTIVE_DEADLINE_RANGE));
  const hostname = str(spec.hostname);
  if (hostname) checkDNSLabel(causes, `${path}.hostname`, hostname);
  const subdomain = str(spec.subdomain);
  if (subdomain) checkDNSLabel(causes, `${path}.subdomain`, subdomain);
  validateTolerations(spec.tolerations, `${path}.tolerations`, causes);
  validateHostAliases(spec.hostAliases, `${path}.hostAliases`, causes);
  checkOptionalSubdomain(causes, `${path}.priorityClassName`, spec.priorityClassName);
  if (typeof spec.runtimeClassName === 'string') checkDNSSubdomain(causes, `${path}.runtimeClassName`, spec.runtimeClassName);
  if (typeof spec.preemptionPolicy === 'string') {
    const policy = spec.preemptionPolicy;
    if (!policy) causes.push(required(`${path}.preemptionPolicy`));
    else if (!PREEMPTION_POLICIES.includes(policy)) causes.push(notSupported(`${path}.preemptionPolicy`, policy, PREEMPTION_POLICIES));
  }
  // validateOverhead: checked as a container's limits are
  if (isObj(spec.overhead)) validateContainerResources({ limits: spec.overhead }, `${path}.overhead`, causes);
  validateOS(spec, path, causes);
  return causes;
}
