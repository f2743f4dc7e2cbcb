// pods/binding (what the scheduler posts) and core/v1 bindings (a POST of a Binding that names its pod: the Python
// client's create_namespaced_binding), as upstream's BindingREST and LegacyBindingREST in registry/core/pod/storage.
// Neither stores the Binding: the pod is assigned.
import type { KubeObject } from '../../../api/types.js';
import { badRequest, conflict, isStatusError, namespaceMismatch, notFound } from '../../apimachinery/errors.js';
import { nameIsPathSegment } from '../../apimachinery/names.js';
import type { RequestContext } from '../../registry/context.js';
import { decodeAs } from '../../registry/generic/decode.js';
import type { Registry } from '../../registry/generic/registry.js';
import { toApiError } from '../../registry/storage-errors.js';
import { rfc3339 } from '../../registry/meta.js';

const success = (code: number): KubeObject => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code });
/** What the assignment itself refuses is a conflict on pods/binding (upstream's assignPod); its preconditions', on pods. */
const POD_BINDING = { group: '', resource: 'pods/binding' };

type Admit = (phase: 'mutate' | 'validate') => Promise<void> | void;

/** Whether the registry is core/v1 bindings, whose create binds a pod (upstream: storage_core.go's LegacyBinding). */
export const isLegacyBindings = (reg: Registry): boolean => reg.rt.group === '' && reg.rt.plural === 'bindings';

/**
 * pods/binding: the Binding must bear the URL's name. Admission sees a CREATE of pods/binding with the Binding, whose
 * uid and resourceVersion are preconditions on the pod (this subresource keeps the body's system fields).
 */
export function bindPod(pods: Registry, ctx: RequestContext, name: string, body: unknown): Promise<KubeObject> {
  const binding = decodeBinding(pods, ctx, body);
  return assign(pods, ctx, binding, (phase) => pods.admission(phase, 'CREATE', ctx, binding, undefined, name, 'binding'), name);
}

/**
 * core/v1 bindings: the pod is the one the Binding names. Admission sees a CREATE of bindings (no subresource) with
 * that name; the create handler wipes the body's system fields first, so its uid is no precondition here.
 */
export function bindLegacy(bindings: Registry, ctx: RequestContext, body: unknown): Promise<KubeObject> {
  const pods = bindings.deps.peer('', 'pods')!;
  const binding = decodeBinding(pods, ctx, body);
  const meta = binding.metadata;
  if (meta) {
    delete meta.creationTimestamp;
    delete meta.uid;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
  }
  const name = meta?.name ?? '';
  return assign(pods, ctx, binding, (phase) => bindings.admission(phase, 'CREATE', ctx, binding, undefined, name));
}

function decodeBinding(pods: Registry, ctx: RequestContext, body: unknown): KubeObject {
  const binding = decodeAs(pods.deps.decoder, body ?? {}, 'io.k8s.api.core.v1.Binding', 'Binding', 'v1', ctx);
  // the create handler's namespace check (every create's), before admission
  if (binding.metadata?.namespace && binding.metadata.namespace !== ctx.namespace) throw namespaceMismatch();
  return binding;
}

/**
 * Assigns the pod the Binding names to binding.target (a Node); only an unassigned pod can be bound. The pod is then
 * changed in storage directly (no pod update admission or validation, no managedFields entry for the scheduler).
 */
async function assign(pods: Registry, ctx: RequestContext, binding: KubeObject, admit: Admit, urlName?: string): Promise<KubeObject> {
  const mutating = admit('mutate');
  if (mutating) await mutating;
  // BindingREST.Create: the name, ValidatePodBinding, then validating admission
  const name = binding.metadata?.name ?? '';
  if (urlName !== undefined && name !== urlName) throw badRequest('name in URL does not match name in Binding object');
  const target = validateBinding(binding);
  const validating = admit('validate');
  if (validating) await validating;
  checkKeyName(name);
  const assigned = (current: KubeObject): KubeObject => {
    const { uid, resourceVersion } = binding.metadata ?? {};
    if (uid && uid !== current.metadata?.uid) throw conflict(pods.gr, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata?.uid ?? ''}`);
    if (resourceVersion && resourceVersion !== current.metadata?.resourceVersion) {
      throw conflict(pods.gr, name, `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${current.metadata?.resourceVersion ?? ''}`);
    }
    // only metadata, spec and status change: copies of those, the rest shared with the stored object (read-only)
    const pod: KubeObject = { ...current, metadata: { ...current.metadata }, spec: { ...current.spec }, status: { ...current.status } };
    if (pod.metadata?.deletionTimestamp) throw conflict(POD_BINDING, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (pod.spec?.nodeName) throw conflict(POD_BINDING, name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    if ((pod.spec?.schedulingGates as unknown[] | undefined)?.length) throw conflict(POD_BINDING, name, `pod ${name} has non-empty .spec.schedulingGates`);
    pod.spec.nodeName = target;
    for (const [k, v] of Object.entries((binding.metadata?.annotations ?? {}) as Record<string, string>)) {
      pod.metadata!.annotations = { ...pod.metadata!.annotations, [k]: v };
    }
    const conditions = (pod.status!.conditions = [...(pod.status!.conditions ?? [])]) as KubeObject[];
    // `lastProbeTime: null` as Go writes the zero time, and as the kubelet's status writes carry this condition back
    const scheduled = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(ctx.now) };
    const i = conditions.findIndex((c) => c.type === 'PodScheduled');
    if (i >= 0) conditions[i] = scheduled;
    else conditions.push(scheduled);
    delete pod.metadata!.resourceVersion;
    return pod;
  };
  if (ctx.dryRun) {
    assigned((await pods.get(ctx, name)).object);
    return success(201);
  }
  try {
    await pods.deps.store.guaranteedUpdate(pods.key(ctx.namespace, name), (cur) => {
      if (!cur) throw notFound(pods.gr, name);
      return assigned(cur.object);
    });
  } catch (err) {
    throw isStatusError(err) ? err : toApiError(err, pods.gr, name);
  }
  return success(201);
}

/**
 * Upstream's ValidatePodBinding; the node's name when valid. Upstream returns its errors as a plain aggregate, which
 * its handler answers as a 500; here they are the client's 400 BadRequest, with the aggregate's words.
 */
function validateBinding(binding: KubeObject): string {
  const target = (binding.target ?? {}) as { kind?: string; name?: string };
  const errs: string[] = [];
  if (target.kind && target.kind !== 'Node') errs.push(`target.kind: Unsupported value: ${JSON.stringify(target.kind)}: supported values: "Node", "<empty>"`);
  if (!target.name) errs.push('target.name: Required value');
  if (errs.length) throw badRequest(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  return target.name!;
}

/** The pod's name as a storage key takes it (upstream's NamespaceKeyFunc): a legacy Binding may name none. */
function checkKeyName(name: string): void {
  if (!name) throw badRequest('Name parameter required.');
  const bad = nameIsPathSegment(name, false);
  if (bad.length) throw badRequest(`Name parameter invalid: ${JSON.stringify(name)}: ${bad.join(';')}`);
}
