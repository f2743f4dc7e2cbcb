// pods/binding (what the scheduler posts), as upstream's registry/core/pod/storage does it.
import type { KubeObject } from '../../../api/types.js';
import { badRequest, conflict, isStatusError, namespaceMismatch, notFound } from '../../apimachinery/errors.js';
import type { RequestContext } from '../../registry/context.js';
import { decodeAs } from '../../registry/generic/decode.js';
import type { Registry } from '../../registry/generic/registry.js';
import { toApiError } from '../../registry/storage-errors.js';
import { rfc3339 } from '../../registry/meta.js';

const success = (code: number): KubeObject => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code });

/**
 * Assigns the pod to binding.target (a Node); only an unassigned pod can be bound. As upstream's BindingREST: admission
 * sees a CREATE of pods/binding with the Binding, and the pod is then changed in storage directly (no pod update
 * admission or validation, no managedFields entry for the scheduler).
 */
export async function bindPod(pods: Registry, ctx: RequestContext, name: string, body: unknown): Promise<KubeObject> {
  const binding = decodeAs(pods.deps.decoder, body ?? {}, 'io.k8s.api.core.v1.Binding', 'Binding', 'v1', ctx);
  // the create handler's namespace check (every create's), then BindingREST's own of the name
  if (binding.metadata?.namespace && binding.metadata.namespace !== ctx.namespace) throw namespaceMismatch();
  if (binding.metadata?.name !== name) throw badRequest('name in URL does not match name in Binding object');
  const mutating = pods.admission('mutate', 'CREATE', ctx, binding, undefined, name, 'binding');
  if (mutating) await mutating;
  const target = binding.target as { kind?: string; name?: string } | undefined;
  if (!target?.name) throw pods.invalid(name, [{ reason: 'FieldValueRequired', field: 'target.name', message: 'Required value' }]);
  if (target.kind && target.kind !== 'Node') throw pods.invalid(name, [{ reason: 'FieldValueNotSupported', field: 'target.kind', message: `Unsupported value: "${target.kind}": supported values: "Node"` }]);
  const validating = pods.admission('validate', 'CREATE', ctx, binding, undefined, name, 'binding');
  if (validating) await validating;
  const assign = (current: KubeObject): KubeObject => {
    const { uid, resourceVersion } = binding.metadata ?? {};
    if (uid && uid !== current.metadata?.uid) throw conflict(pods.gr, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata?.uid ?? ''}`);
    if (resourceVersion && resourceVersion !== current.metadata?.resourceVersion) {
      throw conflict(pods.gr, name, `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${current.metadata?.resourceVersion ?? ''}`);
    }
    // only metadata, spec and status change: copies of those, the rest shared with the stored object (read-only)
    const pod: KubeObject = { ...current, metadata: { ...current.metadata }, spec: { ...current.spec }, status: { ...current.status } };
    if (pod.metadata?.deletionTimestamp) throw conflict(pods.gr, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (pod.spec?.nodeName) throw conflict(pods.gr, name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
    if ((pod.spec?.schedulingGates as unknown[] | undefined)?.length) throw conflict(pods.gr, name, `pod ${name} has non-empty .spec.schedulingGates`);
    pod.spec.nodeName = target.name;
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
    assign((await pods.get(ctx, name)).object);
    return success(201);
  }
  try {
    await pods.deps.store.guaranteedUpdate(pods.key(ctx.namespace, name), (cur) => {
      if (!cur) throw notFound(pods.gr, name);
      return assign(cur.object);
    });
  } catch (err) {
    throw isStatusError(err) ? err : toApiError(err, pods.gr, name);
  }
  return success(201);
}
