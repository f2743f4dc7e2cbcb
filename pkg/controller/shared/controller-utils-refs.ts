// Adoption and release (upstream ControllerRefManager): a controller claims the objects its selector matches that
// no one controls (adopt: add its controller reference) and lets go of those it controls that stopped matching
// (release: remove the reference). Both are patches guarded by the object's uid.
import type { KubeObject } from '../../../api/types.js';
import type { Selector } from '../../apimachinery/labels.js';
import { isNotFound, type ResourceClient } from '../../client/index.js';
import { controllerRef, getControllerOf } from './controller-utils.js';

export interface ClaimOptions {
  owner: KubeObject;
  ownerApiVersion: string;
  ownerKind: string;
  selector: Selector;
  /** Client of the claimed resource in the owner's namespace. */
  client: ResourceClient;
  /** A final check before adopting (upstream: the owner, re-read from the API, is not being deleted). */
  canAdopt?: () => Promise<boolean>;
  /** Extra match beyond labels (e.g. DaemonSet pods must also be for a node), default none. */
  filter?: (o: KubeObject) => boolean;
}

/** Returns the objects the owner controls after adopting orphans and releasing non-matching children. */
export async function claimObjects<T extends KubeObject>(objs: T[], o: ClaimOptions): Promise<T[]> {
  const uid = o.owner.metadata!.uid!;
  const claimed: T[] = [];
  let adoptAllowed: boolean | undefined;
  for (const obj of objs) {
    const ref = getControllerOf(obj);
    const matches = o.selector.matches(obj.metadata?.labels) && (o.filter?.(obj) ?? true);
    if (ref) {
      if (ref.uid !== uid) continue;
      if (matches) { claimed.push(obj); continue; }
      if (o.owner.metadata?.deletionTimestamp) continue;
      await release(obj, uid, o.client);
      continue;
    }
    if (!matches || o.owner.metadata?.deletionTimestamp || obj.metadata?.deletionTimestamp) continue;
    adoptAllowed ??= o.canAdopt ? await o.canAdopt() : true;
    if (!adoptAllowed) continue;
    try {
      const patched = await o.client.patch(obj.metadata!.name!, 'strategic', {
        metadata: { ownerReferences: [controllerRef(o.owner, o.ownerApiVersion, o.ownerKind)], uid: obj.metadata!.uid },
      });
      claimed.push(patched as T);
    } catch (err) {
      if (isNotFound(err)) continue;
      throw err;
    }
  }
  return claimed;
}

async function release(obj: KubeObject, ownerUid: string, client: ResourceClient): Promise<void> {
  try {
    await client.patch(obj.metadata!.name!, 'strategic', {
      metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUid }], uid: obj.metadata!.uid },
    });
  } catch (err) {
    if (isNotFound(err) || (err as { code?: number }).code === 422) return;
    throw err;
  }
}
