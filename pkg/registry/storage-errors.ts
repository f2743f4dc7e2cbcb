// The one place where storage errors become API errors (upstream: storage/errors/storage.go).
import { alreadyExists, conflict, gone, notFound, serviceUnavailable, type GroupResource } from '../apimachinery/errors.js';
import { isStorageError, type StorageError } from '../storage/errors.js';

/** The API error of a storage error, which it keeps as its `cause` (the revision a retry must wait for). */
export function toApiError(err: unknown, gr: GroupResource, name: string): unknown {
  if (!isStorageError(err)) return err;
  const apiError = apiErrorOf(err, gr, name);
  Object.defineProperty(apiError, 'cause', { value: err, configurable: true });
  return apiError;
}

function apiErrorOf(err: StorageError, gr: GroupResource, name: string): Error {
  switch (err.code) {
    case 'KeyNotFound': return notFound(gr, name);
    case 'KeyExists': return alreadyExists(gr, name);
    case 'Conflict': return conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
    case 'Compacted': return gone(`The resourceVersion for the provided watch is too old.`);
    case 'Unavailable': return serviceUnavailable(err.message);
  }
}

/** The storage error an API error was made from (toApiError), if any. */
export const storageCause = (err: unknown): StorageError | undefined => {
  const cause = err instanceof Error ? err.cause : undefined;
  return isStorageError(cause) ? cause : undefined;
};
