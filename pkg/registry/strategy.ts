// A strategy is what makes one resource different from the generic store (upstream:
// pkg/registry/<group>/<resource>/strategy.go). Everything is optional; the defaults are the
// generic behaviour.
import type { KubeObject } from '../../api/types.js';
import type { GroupResource, StatusCause } from '../apimachinery/errors.js';
import type { NameValidator } from '../apimachinery/names.js';
import type { DeleteOptions, RequestContext } from './context.js';

/** The metadata a write through /status may change, unless its strategy keeps it. */
export type StatusWritableMetadata = 'labels' | 'annotations' | 'finalizers' | 'ownerReferences';

/** Upstream's metav1.ResetObjectMetaForStatus: a status write changes none of the metadata. */
export const RESET_OBJECT_META_FOR_STATUS: readonly StatusWritableMetadata[] = ['labels', 'annotations', 'finalizers', 'ownerReferences'];

export interface Strategy {
  /** metadata.generation starts at 1 and rises with every change outside metadata and status. */
  generation?: boolean;
  /** A change of the annotations raises the generation too (a Deployment's: they are copied to its ReplicaSets). */
  annotationsRaiseGeneration?: boolean;
  /** A change of the labels raises the generation too (an EndpointSlice's). */
  labelsRaiseGeneration?: boolean;
  /** A PUT of a missing object creates it. */
  allowCreateOnUpdate?: boolean;
  /** A PUT without metadata.resourceVersion overwrites (default true). */
  allowUnconditionalUpdate?: boolean;
  /** The DELETE response is the object (true) or a Status (false). */
  returnDeletedObject?: boolean;
  /**
   * GC policy when the client names none (upstream's DefaultGarbageCollectionPolicy; default Background): batch/v1
   * Jobs and v1 ReplicationControllers orphan, for back compatibility.
   */
  defaultGarbageCollectionPolicy?: 'Background' | 'Orphan';
  /** Warned of by a DELETE or DELETECOLLECTION left to an Orphan default, whatever comes of it (upstream's Job REST). */
  defaultOrphanWarning?: string;
  /** Status may be set on create (upstream's node strategy: a kubelet registers its Node with its status). */
  keepStatusOnCreate?: boolean;
  /** Resets fields on create (status to its initial value, ...). */
  prepareForCreate?(obj: KubeObject, ctx: RequestContext): void;
  /** Resets fields a main-resource update may not change (status is handled generically). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): void;
  /**
   * What a status update keeps of the stored metadata (upstream's status strategies): by default only the
   * server's fields (uid, generation, deletionTimestamp, ...), the writer's labels, annotations, finalizers and
   * ownerReferences going through; 'all': every field but managedFields (custom resources, flow control).
   */
  statusKeepsMetadata?: 'all' | readonly StatusWritableMetadata[];
  /** Resets fields a status update may not change, beyond the generic "spec stays as stored". */
  prepareForStatusUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): void;
  /** How names are checked (default: DNS-1123 subdomain). */
  nameFn?: NameValidator;
  validate?(obj: KubeObject, ctx: RequestContext): StatusCause[];
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): StatusCause[];
  /** validateUpdate alone validates an update (CRDs ratchet what the stored object already violates); validate is create-only. */
  updateValidationIsComplete?: boolean;
  /** Rules for writes through a subresource (custom resources validate status updates against their schema). */
  validateSubresource?(obj: KubeObject, old: KubeObject, ctx: RequestContext, subresource: string): StatusCause[];
  /** Warnings for a create that passed validation (upstream's WarningsOnCreate), sent to the client as Warning headers. */
  warningsOnCreate?(obj: KubeObject, ctx: RequestContext): string[];
  /** Warnings for a valid update of the main resource or its scale (upstream's WarningsOnUpdate; status strategies have none). */
  warningsOnUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): string[];
  /** The scale subresource of a kind whose replicas live elsewhere than spec.replicas (custom resources). */
  scale?: {
    get(obj: KubeObject): KubeObject;
    /** The object with the Scale's spec.replicas written to it (a copy). */
    set(obj: KubeObject, replicas: number): KubeObject;
    /** Where the replicas live in the object (its specReplicasPath), for the managed fields of a Scale. */
    replicasPath: string[];
  };
  /** false: strategic merge patch is refused with 415, as for custom resources upstream. */
  strategicMergePatch?: boolean;
  /** Side effects that must happen before the write (ClusterIP allocation); may throw. */
  beforeCreate?(obj: KubeObject, ctx: RequestContext): Promise<void> | void;
  /**
   * Side effects of an update before its write (a type change's node ports); what it returns is told whether that
   * write happened (`commit`) or not (`abort`: a conflict retried, a failed write), so that it can give back then.
   */
  beforeUpdate?(obj: KubeObject, old: KubeObject, ctx: RequestContext): UpdateSideEffects | void;
  /** Releases what beforeCreate took, once the object is gone (or the create failed). */
  afterDelete?(obj: KubeObject): void;
  /** Throws while a POST may create nothing, before its body is read (a custom resource's while its CRD terminates). */
  refuseCreate?(gr: GroupResource): void;
  /** Throws for a name that a DELETE of the one object may not remove (upstream's REST.Delete guards; not DeleteCollection's). */
  refuseDelete?(name: string): void;
  /**
   * Graceful deletion (upstream's CheckGracefulDelete): the seconds to wait, 0 to mark the object and remove it at once,
   * or undefined for no graceful deletion. Called with an object not yet being deleted and the client's options, a
   * negative period already counted as 1 (pods: terminationGracePeriodSeconds, 0 if unscheduled or finished).
   */
  gracePeriod?(obj: KubeObject, opts: DeleteOptions): number | undefined;
  /** Whether a marked object must stay (default: metadata.finalizers non-empty; namespaces add spec.finalizers). */
  hasPendingFinalizers?(obj: KubeObject): boolean;
  /** Deletion that only marks the object (namespaces: phase Terminating until finalized). */
  beforeDelete?(obj: KubeObject, ctx: RequestContext): KubeObject | undefined;
}

/** What an update's beforeUpdate did, settled once its write is known to have happened or not. */
export interface UpdateSideEffects {
  commit(): void;
  abort(): void;
}
