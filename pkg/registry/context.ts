// What a registry call knows about the request that made it. Built by the apiserver's handlers;
// the registry never sees HTTP.
import type { Deadline } from '../apimachinery/deadline.js';
import type { UserInfo } from '../authentication/interface.js';
import type { DuplicateFields } from '../apimachinery/json-duplicates.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/**
 * How the request's body was written, which decides how upstream's decoder orders its strict errors: a JSON body's
 * in document order; a YAML body's, or a patch's, repetitions first and then the unknown fields of the object it
 * became (in Go's map order for a built-in kind); an apply configuration's repetitions on their own.
 */
export type BodyFormat = 'json' | 'yaml' | 'patch' | 'apply';

/** What strict decoding finds in a body before it becomes an object: the fields it repeats (the last value wins). */
export interface BodyFieldErrors {
  /** A JSON body's repeated fields, by path and offset, in document order, with the text they are in. */
  duplicates?: DuplicateFields & { text: string };
  /** A JSON patch's errors about its operations, worded (`json patch unknown field "[0].foo"`) and in document order. */
  patchOps?: string[];
  /** A YAML body's repeated keys, as go-yaml words them (`line 12: key "paused" already set in map`). */
  yaml?: string[];
}

/** A write's options as its client sent them (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions' query). */
export interface WriteOptions {
  dryRun?: string[];
  fieldManager?: string;
  fieldValidation?: string;
}

export interface RequestContext {
  namespace?: string;
  user?: UserInfo;
  userAgent?: string;
  dryRun: boolean;
  /** The manager recorded in managedFields (fieldManager or derived from the user agent). */
  fieldManager: string;
  fieldValidation: FieldValidation;
  /** The write's options as sent, for admission's `request.options` (none for the apiserver's own writes). */
  options?: WriteOptions;
  /** Warnings for the `Warning` response header, appended by any layer. */
  warnings: string[];
  /** How the body was written (set by the handler that decoded it). */
  bodyFormat?: BodyFormat;
  /** The body's repeated fields, with fieldValidation Strict or Warn; reported once, with its unknown fields. */
  bodyErrors?: BodyFieldErrors;
  /** What a patch made, as its errors quote it (upstream: the patched object's JSON, or a strategic patch as Go prints it). */
  patchedValue?: () => string;
  /** Annotations for the request's audit event (upstream's admission Attributes.AddAnnotation), set by any layer. */
  auditAnnotations?: Record<string, string>;
  /** The request's deadline: nothing is stored once it has passed, and webhook calls stop with it. */
  deadline?: Deadline;
  now: Date;
}

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan' | '';
  /** With the alpha Initializers feature: include objects whose initializers have not all acted. */
  includeUninitialized?: boolean;
  /** A watch's (WatchList); given to a list, it is refused, even as false. */
  sendInitialEvents?: boolean;
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: string[];
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/**
 * The apiserver's own requests (upstream's loopback client, as system:apiserver): its bootstrap objects, the status
 * it keeps, an eviction's change to a disruption budget.
 */
export const systemContext = (namespace?: string, o: Partial<RequestContext> = {}): RequestContext => ({
  namespace,
  user: { name: 'system:apiserver', groups: ['system:masters'] },
  dryRun: false,
  fieldManager: 'kube-apiserver',
  fieldValidation: 'Ignore',
  warnings: [],
  now: new Date(),
  ...o,
});
