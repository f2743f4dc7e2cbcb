// What the apiserver needs to know to serve one resource. Every group-version folder under api/
// exports `resources: ResourceType[]` and `definitions`; api/index.ts gathers them into one table.
import type { Definitions } from './schema.js';

/** A Kubernetes object as it travels: plain JSON. */
export type KubeObject = Record<string, any> & {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
};

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
  selfLink?: string;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

export const ALL_VERBS: Verb[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export interface Subresource {
  /** "status", "scale", "binding", "eviction", "log", "exec", "token", ... */
  name: string;
  /** The kind the subresource speaks (Pod for pods/status, Scale for the scale subresource, Binding, Eviction). */
  group: string;
  version: string;
  kind: string;
  verbs: Verb[] | string[];
}

export interface ResourceType {
  group: string; // "" for core
  version: string;
  kind: string;
  /** lower-case plural, the path segment: "pods" */
  plural: string;
  /** lower-case singular: "pod" */
  singular: string;
  namespaced: boolean;
  verbs: Verb[];
  shortNames?: string[];
  categories?: string[];
  subresources?: Subresource[];
  /** upstream name of the kind's definition: "io.k8s.api.core.v1.Pod" */
  definition: string;
  /** Kept as this group's resource of the same plural (events.k8s.io Events are core Events); its own group if unset. */
  storageGroup?: string;
  /** A warning sent with every response for this resource in this version (a deprecated custom resource version's). */
  warning?: string;
}

/**
 * Computed defaults (upstream's SetDefaults_* that a constant schema `default` cannot express), keyed by the
 * definition name they apply to. The defaulting walk calls them wherever that definition occurs (a PodSpec inside
 * a Deployment's template too), parent before children, after the constant schema defaults of that node.
 */
export type Defaulter = (value: Record<string, any>) => void;

/** How a resource served in this version is kept in the version that stores it (upstream's conversion functions). */
export interface StorageConversion {
  /** The version whose objects are stored (same plural; same group unless the resource names a storageGroup). */
  storageVersion: string;
  toStorage(obj: Record<string, any>): Record<string, any>;
  fromStorage(obj: Record<string, any>): Record<string, any>;
}

export interface GroupVersion {
  group: string;
  version: string;
  resources: ResourceType[];
  definitions: Definitions;
  defaulters?: Record<string, Defaulter>;
  /** Resources of this version stored as another version of the group, by plural. */
  conversions?: Record<string, StorageConversion>;
  /** Served by an extension apiserver: listed in discovery even without resources, as upstream lists every APIService. */
  remote?: boolean;
  /** An extension apiserver not available now: listed with the resources last seen (if any), its discovery Stale. */
  stale?: boolean;
}

export const apiVersionOf = (group: string, version: string): string => (group ? `${group}/${version}` : version);
