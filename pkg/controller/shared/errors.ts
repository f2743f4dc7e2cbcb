// Error predicates the cluster controllers share.
import { isForbidden, isNotFound } from '../../client/index.js';

/** A create refused because its namespace is terminating (upstream: the NamespaceLifecycle admission plugin). */
export const isNamespaceTerminating = (e: unknown): boolean => {
  if (!isForbidden(e)) return false;
  const err = e as { message?: string; details?: { causes?: { reason?: string }[] } };
  return /being terminated/.test(err.message ?? '') || !!err.details?.causes?.some((c) => c.reason === 'NamespaceTerminating');
};

/** The object (or its namespace) is gone: nothing left to do. */
export const isGoneOrTerminating = (e: unknown): boolean => isNotFound(e) || isNamespaceTerminating(e);
