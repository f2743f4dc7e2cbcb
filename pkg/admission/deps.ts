// What admission plugins may read and do beyond the request: injected by the apiserver
// (pkg/apiserver/admission.ts), so plugins never import the registry or the store.
import type { KubeObject, ResourceType } from '../../api/types.js';
import type { AccessAnswer, AccessQuestion } from '../apimachinery/cel/index.js';
import type { UserInfo } from '../authentication/interface.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A change of a stored object; the objects are read (parsed from storage, perhaps) only when asked for. */
export interface Change {
  type: ChangeType;
  /** The object's namespace ('' for a cluster-scoped one), known without reading the object. */
  namespace: string;
  readonly object: KubeObject;
  /** The object before a MODIFIED or DELETED. */
  readonly prev: KubeObject | undefined;
}

/** A resource request to authorize on a plugin's behalf (PodSecurityPolicy asks whether a user may `use` a policy). */
export interface AccessCheck {
  user: UserInfo;
  verb: string;
  apiGroup: string;
  resource: string;
  namespace: string;
  name: string;
}

export interface AdmissionDeps {
  /**
   * Aborted when the apiserver stops (upstream's drained notification): plugins start no more background work, and
   * what fails in work already started because the store closed under it is no news.
   */
  readonly stopped: AbortSignal;
  /** The served resource of that group and plural (its preferred version), if any. */
  resource(group: string, plural: string): ResourceType | undefined;
  /**
   * The served resources whose objects are the same stored objects as `rt`'s (upstream's equivalent resources: the
   * other versions of a custom resource or a built-in kind), `rt` among them.
   */
  equivalents(rt: ResourceType): ResourceType[];
  /** An object of resource `from` as its equivalent `to` serves it (a custom resource's conversion webhook, say). */
  convert(obj: KubeObject, from: ResourceType, to: ResourceType): Promise<KubeObject>;
  /**
   * An object of `rt`'s kind decoded as a request body is (fields the kind lacks dropped without a word, omitempty
   * zeros gone, JSON types checked, defaults applied): what a mutating webhook's patch becomes.
   */
  decode(obj: KubeObject, rt: ResourceType): KubeObject;
  /** The current object from the watch cache. */
  get(group: string, plural: string, namespace: string | undefined, name: string): KubeObject | undefined;
  /** Every current object of a resource in one namespace (all namespaces when undefined). */
  list(group: string, plural: string, namespace?: string): KubeObject[];
  /** Creates an object as the apiserver itself (admission of that create runs too). */
  create(group: string, plural: string, namespace: string | undefined, obj: KubeObject): Promise<void>;
  /**
   * Writes an object's status with a compare-and-swap update through the registry, retried on
   * conflict: `change` gets a copy of the current object and returns the new status (undefined: no write).
   */
  updateStatus(group: string, plural: string, namespace: string | undefined, name: string, change: (current: KubeObject) => unknown): Promise<void>;
  /** Whether the apiserver's authorizer allows the request (absent: nothing is allowed). */
  authorize?(check: AccessCheck): Promise<boolean>;
  /** A SubjectAccessReview's answer for a resource request or a non-resource path (the CEL authorizer library's checks). */
  review?(q: AccessQuestion): Promise<AccessAnswer>;
  /** Every change of a resource from now on (all namespaces); returns the unsubscribe. */
  watch(group: string, plural: string, onChange: (change: Change) => void): () => void;
}
