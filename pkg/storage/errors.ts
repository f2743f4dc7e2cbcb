// Storage's own coded errors. pkg/registry turns them into API errors, in one place.

export type StorageErrorCode = 'KeyNotFound' | 'KeyExists' | 'Conflict' | 'Compacted' | 'Unavailable';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message?: string,
    /**
     * For 'Compacted': the oldest revision still kept. For 'Conflict', 'KeyNotFound' and 'KeyExists' from a write: the
     * newest revision written (perhaps not yet durable), which a read must reach to see the state that refused the write.
     */
    readonly revision?: number,
  ) {
    super(message ?? `${code}: ${key}`);
    this.name = 'StorageError';
  }
}

export const isStorageError = (e: unknown, code?: StorageErrorCode): e is StorageError =>
  e instanceof StorageError && (code === undefined || e.code === code);
