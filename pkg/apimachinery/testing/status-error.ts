// For unit tests: the StatusError a call throws, to check its reason, code, message and causes.
import { StatusError } from '../errors.js';

/** The StatusError `fn` throws; any other error propagates, and not throwing at all fails. */
export const statusErrorOf = (fn: () => unknown): StatusError => {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return e;
    throw e;
  }
  throw new Error('expected a StatusError');
};
