// ControllerRevisions (upstream pkg/controller/history): a StatefulSet or DaemonSet records each template it has
// run as a ControllerRevision `<owner>-<hash>` holding the strategic-merge patch that restores it (what
// `kubectl rollout undo` applies), numbered by revision, and trims old ones to revisionHistoryLimit.
import type { KubeObject } from '../../../api/types.js';
import { Resources, isAlreadyExists, isNotFound, type Client, type Lister } from '../../client/index.js';
import { canonicalJson, controllerRef, fnv32a, getControllerOf, safeEncodeString } from '../shared/controller-utils.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export const CONTROLLER_REVISION_HASH = 'controller-revision-hash';
/** The hash label of the revisions made through upstream's generic history (StatefulSets'). */
export const HISTORY_HASH_LABEL = 'controller.kubernetes.io/hash';
export type Revision = KubeObject;

/**
 * The data of a revision: `{spec: {template: {$patch: replace, ...}}}` with every object's keys sorted, the bytes
 * upstream's getPatch writes (json.Marshal of Go maps): kubectl's `rollout undo` compares them with its own patch of
 * the owner byte for byte to skip a rollback to the template already running.
 */
export const revisionData = (owner: KubeObject): Record<string, unknown> =>
  JSON.parse(canonicalJson({ spec: { template: { ...(owner.spec?.template ?? {}), $patch: 'replace' } } })) as Record<string, unknown>;

export const hashRevision = (data: unknown, collisionCount?: number): string =>
  safeEncodeString(String(fnv32a(canonicalJson(data) + (collisionCount ? `#${collisionCount}` : ''))));

export const revisionsOf = (owner: KubeObject, lister: Lister): Revision[] =>
  lister.namespace(owner.metadata!.namespace!).list().filter((r) => getControllerOf(r)?.uid === owner.metadata!.uid)
    .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0) || (a.metadata!.name! < b.metadata!.name! ? -1 : 1));

export const equalRevision = (a: Revision, b: KubeObject): boolean => canonicalJson(a.data) === canonicalJson(b.data);

/** The owner's kind, and the label its revisions carry their hash in (DaemonSets: controller-revision-hash). */
export interface OwnerKind { apiVersion: string; kind: string; hashLabel: string }

/**
 * The revision of the owner's current template: an existing equal one (renumbered to be the newest if it is not;
 * its labels and annotations stay as they were, as upstream), or a new one. Returns it and the (possibly bumped)
 * collision count.
 */
export async function ensureRevision(client: Client, owner: KubeObject, kind: OwnerKind, existing: Revision[]): Promise<{ revision: Revision; collisionCount: number }> {
  const ns = owner.metadata!.namespace!;
  const rc = client.resource(Resources.controllerRevisions, ns);
  const data = revisionData(owner);
  const max = Math.max(0, ...existing.map((r) => r.revision ?? 0));
  let collisionCount: number = owner.status?.collisionCount ?? 0;
  const equal = existing.filter((r) => equalRevision(r, { data }));
  if (equal.length) {
    const r = equal[equal.length - 1]!;
    if ((r.revision ?? 0) === max) return { revision: r, collisionCount };
    return { revision: await rc.update({ ...r, revision: max + 1 }), collisionCount };
  }
  for (let attempt = 0; attempt < 10; attempt++) {
    const hash = hashRevision(data, collisionCount);
    // as upstream's StatefulSet newRevision and DaemonSet snapshot: the template's labels plus the hash, and every
    // annotation of the owner (kubernetes.io/change-cause is what `kubectl rollout history` shows)
    const annotations = owner.metadata?.annotations;
    const body: Revision = {
      apiVersion: 'apps/v1', kind: 'ControllerRevision',
      metadata: {
        name: `${owner.metadata!.name}-${hash}`, namespace: ns,
        labels: { ...owner.spec?.template?.metadata?.labels, [kind.hashLabel]: hash },
        ...(annotations && Object.keys(annotations).length ? { annotations: { ...annotations } } : {}),
        ownerReferences: [controllerRef(owner, kind.apiVersion, kind.kind)],
      },
      data, revision: max + 1,
    };
    try {
      return { revision: await rc.create(body), collisionCount };
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const found = await rc.get(body.metadata!.name!);
      if (getControllerOf(found)?.uid === owner.metadata!.uid && equalRevision(found, body)) {
        return { revision: found.revision === max + 1 ? found : await rc.update({ ...found, revision: max + 1 }), collisionCount };
      }
      collisionCount++;
    }
  }
  throw new Error(`too many hash collisions for the revisions of ${owner.metadata!.name}`);
}

/** Deletes the oldest revisions not in `live` beyond `limit`. */
export async function truncateHistory(client: Client, revisions: Revision[], live: Set<string>, limit: number): Promise<void> {
  const history = revisions.filter((r) => !live.has(r.metadata!.name!));
  const excess = history.length - limit;
  for (const r of history.slice(0, Math.max(0, excess))) {
    try {
      await client.resource(Resources.controllerRevisions, r.metadata!.namespace!).delete(r.metadata!.name!);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** The owner with the template of a revision applied (its `data.spec.template`). */
export const templateOf = (r: Revision): KubeObject => {
  const t = cloneJson((r.data as { spec?: { template?: KubeObject } })?.spec?.template ?? {});
  delete t.$patch;
  return t;
};
