// Which PersistentVolume a claim may bind to, as upstream's FindMatchingVolume (pkg/volume/util and
// pkg/controller/volume/persistentvolume/index.go): a volume pre-bound to the claim wins; otherwise the smallest
// unclaimed volume of the claim's class, volume mode, selector, access modes and at least its requested size.
import { storageClassOf } from '../../../api/core/v1/storage-objects.js';
import { DEFAULT_STORAGE_CLASS_ANNOTATIONS, markedDefault } from '../../../api/meta/v1/default-class.js';
import { labelSelectorAsSelector, type LabelSelector } from '../../apimachinery/labels.js';
import { compareQuantity, parseQuantity } from '../../apimachinery/quantity.js';
import type { KubeObject } from '../../client/index.js';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';
export const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

/** The claim's class: the beta annotation's, else spec.storageClassName; "" for none. */
export const claimClass = storageClassOf;

/** The storage of a resource list (requests, capacity), in nanos; 0 when absent. */
export const storageQuantity = (resources: unknown): bigint => {
  const s = (resources as Record<string, string> | undefined)?.storage;
  return s ? parseQuantity(s).nanos : 0n;
};

/** The storage a claim asks for. */
export const requestedStorage = (claim: KubeObject): string | undefined => claim.spec?.resources?.requests?.storage as string | undefined;

export const isPreBoundTo = (pv: KubeObject, claim: KubeObject): boolean => {
  const ref = pv.spec?.claimRef as { namespace?: string; name?: string; uid?: string } | undefined;
  return !!ref && ref.namespace === claim.metadata?.namespace && ref.name === claim.metadata?.name && (!ref.uid || ref.uid === claim.metadata?.uid);
};

/** Why a volume cannot serve a claim (class, mode, size, access modes), or undefined when it can. */
export const mismatch = (pv: KubeObject, claim: KubeObject): string | undefined => {
  if (storageClassOf(pv) !== claimClass(claim)) return 'storageClassName does not match';
  if (((pv.spec?.volumeMode as string | undefined) ?? 'Filesystem') !== ((claim.spec?.volumeMode as string | undefined) ?? 'Filesystem')) return 'incompatible volumeMode';
  const want = requestedStorage(claim);
  if (want && storageQuantity(pv.spec?.capacity as Record<string, string>) < parseQuantity(want).nanos) return 'requested PV is too small';
  const modes = (pv.spec?.accessModes ?? []) as string[];
  if (!((claim.spec?.accessModes ?? []) as string[]).every((m) => modes.includes(m))) return 'incompatible accessMode';
  return undefined;
};

/**
 * The volume the binder should bind `claim` to. With delayed binding (WaitForFirstConsumer) only a volume the
 * scheduler pre-bound counts: the scheduler chooses by node.
 */
export const findBestMatch = (claim: KubeObject, volumes: KubeObject[], delayBinding: boolean): KubeObject | undefined => {
  const selector = claim.spec?.selector ? labelSelectorAsSelector(claim.spec.selector as LabelSelector) : undefined;
  let best: KubeObject | undefined;
  for (const pv of volumes) {
    if (pv.metadata?.deletionTimestamp) continue;
    if (isPreBoundTo(pv, claim)) {
      if (!mismatch(pv, claim)) return pv;
      continue;
    }
    if (pv.spec?.claimRef || delayBinding) continue;
    if (['Bound', 'Released', 'Failed'].includes(pv.status?.phase as string)) continue;
    if (mismatch(pv, claim)) continue;
    if (selector && !selector.matches(pv.metadata?.labels)) continue;
    if (!best || compareQuantity(parseQuantity(pv.spec?.capacity?.storage ?? '0'), parseQuantity(best.spec?.capacity?.storage ?? '0')) < 0) best = pv;
  }
  return best;
};

/** The default StorageClass (annotation is-default-class "true", GA or beta); the newest when several claim it, as upstream. */
export const defaultClass = (classes: KubeObject[]): KubeObject | undefined => markedDefault(classes, DEFAULT_STORAGE_CLASS_ANNOTATIONS);
