// The one place where storage errors become API errors (upstream: storage/errors/storage.go).
import { alreadyExists, conflict, gone, notFound, serviceUnavailable, type GroupResource } from '../apimachinery/errors.js';
import { isStorageError } from '../storage/errors.js';

export function toApiError(err: unknown, gr: GroupResource, name: string): unknown {
  if (!isStorageError(err)) return err;
  switch (err.code) {
    case 'KeyNotFound': return notFound(gr, name);
    case 'KeyExists': return alreadyExists(gr, name);
    case 'Conflict': return conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
    case 'Compacted': return gone(`The resourceVersion for the provided watch is too old.`);
    case 'Unavailable': return serviceUnavailable(err.message);
  }
}
