// A Node's pod address ranges.
import type { KubeObject } from '../../types.js';

/** spec.podCIDRs (one per IP family), or the older spec.podCIDR alone; [] before node-ipam or --pod-cidr gave one. */
export const podCidrsOf = (node: KubeObject): string[] =>
  (node.spec?.podCIDRs as string[] | undefined)?.length ? node.spec!.podCIDRs as string[] : node.spec?.podCIDR ? [node.spec.podCIDR as string] : [];
