// The node-ipam controller with upstream's range allocator (pkg/controller/nodeipam, --allocate-node-cidrs,
// --cluster-cidr, --node-cidr-mask-size): every Node without spec.podCIDR gets the next free block of the cluster
// CIDR; podCIDRs already set (by a kubelet's --pod-cidr or an earlier run) are marked taken first; a deleted
// Node's block is freed. Off unless --allocate-node-cidrs, as upstream.
import { podCidrsOf } from '../../../api/core/v1/node-pod-cidrs.js';
import { isNotFound, type KubeObject } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { objOf, workerLoop } from '../shared/controller-utils.js';
import { CidrSet } from './cidr-set.js';

export async function startNodeIpamController(ctx: ClusterControllerContext): Promise<void> {
  const cfg = ctx.config;
  if (!cfg.allocateNodeCidrs) {
    ctx.logger.info('node-ipam-controller is off (--allocate-node-cidrs=false)');
    return;
  }
  if (!cfg.clusterCidr) throw new Error('--cluster-cidr must be set when --allocate-node-cidrs is true');
  const cidrs = new CidrSet(cfg.clusterCidr, cfg.nodeCidrMaskSize);
  // the service range must never be a node's (upstream filterOutServiceRange)
  if (cfg.serviceClusterIpRange) {
    try { cidrs.occupy(cfg.serviceClusterIpRange); } catch { /* outside the cluster CIDR: nothing to keep out */ }
  }
  const nodes = ctx.informers.nodes();
  const lister = nodes.lister();
  /** What each node (by name, with its uid) holds in the set, so a deletion frees exactly that. */
  const held = new Map<string, { uid?: string; cidrs: string[] }>();
  let primed = false;
  const loop = workerLoop(ctx, 'node-ipam-controller', sync);

  nodes.addEventHandler({
    onAdd: (n) => loop.enqueue(n),
    onUpdate: (_o, n) => { if (!podCidrsOf(n).length || !held.has(n.metadata!.name!)) loop.enqueue(n); },
    onDelete: (o) => loop.enqueue(objOf(o)),
  });

  const release = (name: string): void => {
    for (const c of held.get(name)?.cidrs ?? []) cidrs.release(c);
    held.delete(name);
  };

  const occupy = (node: KubeObject): void => {
    const name = node.metadata!.name!;
    const given = podCidrsOf(node);
    const had = held.get(name);
    if (had?.uid === node.metadata?.uid && had?.cidrs.join() === given.join()) return;
    if (had?.uid !== node.metadata?.uid) release(name);
    try {
      for (const c of given) cidrs.occupy(c);
      held.set(name, { uid: node.metadata?.uid, cidrs: given });
    } catch (err) {
      ctx.logger.warn({ err, node: name, podCIDRs: given }, 'the node\'s podCIDR is not in the cluster CIDR; left as it is');
      held.set(name, { uid: node.metadata?.uid, cidrs: [] });
    }
  };

  async function sync(name: string): Promise<void> {
    // Before the first allocation every podCIDR already given is taken (the cache is synced when workers run).
    if (!primed) {
      for (const n of lister.list()) if (podCidrsOf(n).length) occupy(n);
      primed = true;
    }
    const node = lister.get(name);
    if (!node) { release(name); return; }
    if (podCidrsOf(node).length) { occupy(node); return; }
    const had = held.get(name);
    // given one already, which the cache does not show yet (an older event of the node): not a second one
    if (had?.uid === node.metadata?.uid && had?.cidrs.length) return;
    // a node of that name deleted and made again: what the old one held is free
    if (had) release(name);
    let cidr: string;
    try {
      cidr = cidrs.allocateNext();
    } catch (err) {
      ctx.recorder.event(node, 'Normal', 'CIDRNotAvailable', `Node ${name} status is now: CIDRNotAvailable`);
      throw err;
    }
    try {
      await ctx.client.nodes().patch(name, 'strategic', { spec: { podCIDR: cidr, podCIDRs: [cidr] } }, { signal: ctx.signal });
      held.set(name, { uid: node.metadata?.uid, cidrs: [cidr] });
      ctx.logger.info({ node: name, podCIDR: cidr }, 'set node PodCIDR');
    } catch (err) {
      cidrs.release(cidr);
      if (isNotFound(err)) return;
      ctx.recorder.event(node, 'Normal', 'CIDRAssignmentFailed', `Node ${name} status is now: CIDRAssignmentFailed`);
      throw err;
    }
  }

  await loop.run();
}
