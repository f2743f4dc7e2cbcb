// An object whose initializer set metadata.initializers.result has failed initialization and is deleted right
// after that write (upstream 1.13: Store.Update's shouldDeleteForFailedInitialization).
import { isStorageError } from '../../storage/errors.js';
import type { KeyValue } from '../../storage/interface.js';
import type { Registry, Result } from '../generic/registry.js';

export async function deleteIfInitializationFailed(reg: Registry, kv: KeyValue): Promise<Result | undefined> {
  if (!(kv.object.metadata as { initializers?: { result?: unknown } }).initializers?.result) return undefined;
  try {
    const gone = await reg.deps.store.delete(kv.key, { expectedRevision: kv.modRevision });
    reg.strategy.afterDelete?.(gone.object);
    return { object: gone.object, bytes: gone.bytes };
  } catch (err) {
    if (isStorageError(err, 'KeyNotFound') || isStorageError(err, 'Conflict')) return undefined;
    throw err;
  }
}
