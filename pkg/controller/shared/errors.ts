// Error predicates the cluster controllers share.
import { isNamespaceTerminating, isNotFound } from '../../client/index.js';

export { isNamespaceTerminating };

/** The object (or its namespace) is gone: nothing left to do. */
export const isGoneOrTerminating = (e: unknown): boolean => isNotFound(e) || isNamespaceTerminating(e);
