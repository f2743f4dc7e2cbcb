// The ValidatingAdmissionPolicy status controller (upstream pkg/controller/validatingadmissionpolicystatus): a
// policy whose generation is newer than its status.observedGeneration is type-checked against the kinds it matches
// (type-checker.ts) and gets, by server-side apply of its status, the generation observed and the expressions'
// warnings. Type checking never changes what the policy does.
import type { KubeObject } from '../../../api/types.js';
import { isNotFound, type ResourceRef } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { workerLoop } from '../shared/controller-utils.js';
import { apiServerSchemaResolver } from './schema-resolver.js';
import { typeCheck } from './type-checker.js';
import { loadCel } from '../../apimachinery/cel/index.js';

const NAME = 'validatingadmissionpolicy-status-controller';
const POLICIES: ResourceRef = { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false };

export async function startValidatingAdmissionPolicyStatusController(ctx: ClusterControllerContext): Promise<void> {
  await loadCel(); // its type checks compile the policies' expressions
  const informer = ctx.informers.informerFor(POLICIES);
  const lister = informer.lister();
  const loop = workerLoop(ctx, NAME, sync);
  informer.addEventHandler({ onAdd: (p) => loop.enqueue(p), onUpdate: (_, p) => loop.enqueue(p) });

  async function sync(name: string): Promise<void> {
    const policy = lister.get(name);
    const generation = policy?.metadata?.generation ?? 0;
    if (!policy || generation <= (policy.status?.observedGeneration ?? 0)) return;
    const expressionWarnings = await typeCheck(policy, apiServerSchemaResolver(ctx.client, ctx.signal));
    const status: KubeObject = {
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name },
      status: { observedGeneration: generation, typeChecking: expressionWarnings.length ? { expressionWarnings } : {} },
    };
    try {
      await ctx.client.resource(POLICIES).applyStatus(status, { fieldManager: NAME, force: true, signal: ctx.signal });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  await loop.run();
}
