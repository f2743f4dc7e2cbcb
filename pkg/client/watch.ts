// Watch decoding: the apiserver streams one JSON WatchEvent per line over a chunked response. The decoder frames
// lines across chunk boundaries (and UTF-8 sequences split between chunks) and yields typed events; an ERROR event
// carries a Status, which `watchError` turns into a StatusError.
import type { KubeObject } from '../../api/types.js';
import type { Status } from '../apimachinery/errors.js';
import { statusErrorFrom, type StatusError } from './errors.js';
import { withoutManagedFields } from './managed-fields-text.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export type WatchEvent<T extends KubeObject = KubeObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; object: T }
  | { type: 'ERROR'; object: Status };

const TYPES = new Set<string>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** The annotation on the bookmark that ends a watch's initial events (sendInitialEvents=true). */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export class WatchDecodeError extends Error {
  constructor(message: string, readonly line: string) {
    super(message);
    this.name = 'WatchDecodeError';
  }
}

const decodeLine = <T extends KubeObject>(line: string, dropManagedFields: boolean): WatchEvent<T> => {
  let ev: { type?: unknown; object?: unknown };
  try {
    ev = JSON.parse(dropManagedFields ? withoutManagedFields(line) : line) as typeof ev;
  } catch (e) {
    throw new WatchDecodeError(`watch: cannot decode event: ${(e as Error).message}`, line.slice(0, 256));
  }
  if (typeof ev !== 'object' || ev === null || typeof ev.type !== 'string' || !TYPES.has(ev.type) || typeof ev.object !== 'object' || ev.object === null) {
    throw new WatchDecodeError(`watch: not a watch event: ${line.slice(0, 128)}`, line.slice(0, 256));
  }
  return ev as WatchEvent<T>;
};

/**
 * Yields the events of a watch response body until it ends; throws WatchDecodeError on a malformed line.
 * `dropManagedFields`: objects may come without metadata.managedFields (left unparsed where the text allows).
 */
export async function* decodeWatch<T extends KubeObject = KubeObject>(body: AsyncIterable<Uint8Array | string>, dropManagedFields = false): AsyncGenerator<WatchEvent<T>> {
  const utf8 = new TextDecoder('utf-8');
  let buffered = '';
  for await (const chunk of body) {
    buffered += typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) yield decodeLine<T>(line, dropManagedFields);
    }
  }
  buffered += utf8.decode();
  if (buffered.trim()) yield decodeLine<T>(buffered.trim(), dropManagedFields);
}

/** The StatusError an ERROR event carries. */
export const watchError = (status: Status): StatusError => statusErrorFrom(status.code || 500, status);

/** A running watch: iterate its events; stop() ends it (the iteration then finishes quietly). */
export interface Watch<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  stop(): void;
}
