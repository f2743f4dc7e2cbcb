// What a registry call knows about the request that made it. Built by the apiserver's handlers;
// the registry never sees HTTP.
import type { UserInfo } from '../authentication/interface.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface RequestContext {
  namespace?: string;
  user?: UserInfo;
  userAgent?: string;
  dryRun: boolean;
  /** The manager recorded in managedFields (fieldManager or derived from the user agent). */
  fieldManager: string;
  fieldValidation: FieldValidation;
  /** Warnings for the `Warning` response header, appended by any layer. */
  warnings: string[];
  /** Annotations for the request's audit event (upstream's admission Attributes.AddAnnotation), set by any layer. */
  auditAnnotations?: Record<string, string>;
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
