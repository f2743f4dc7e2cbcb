// Encryption at rest (--encryption-provider-config) as a Store around the Store: objects of the configured resources
// are written as an envelope `{"k8s:enc": "k8s:enc:<provider>:v1:<key>:<base64 ciphertext>"}` holding the encrypted
// JSON of the object (only the store's resourceVersion stays in the clear), and read back decrypted, so that the
// registry, the watch cache and every client see plain objects. The first provider encrypts, all decrypt; data in
// the clear is read only when identity is among the providers. An update re-encrypts with the first provider, and an
// update that changes nothing still rewrites data that the first key did not encrypt: rotating a key is rewriting
// every object (`kubectl get secrets -A -o json | kubectl replace -f -`), as upstream.
import type { KubeObject } from '../../../api/types.js';
import type { KeyValue, ListResult, Store, StoreEvent, Watcher, WatchOptions } from '../interface.js';
import type { Transformer } from './providers.js';
import { keyValueOf, storedBytes } from '../keyvalue.js';

export const ENVELOPE_FIELD = 'k8s:enc';

export interface ResourceEncryption {
  /** Storage key prefixes of the resources (`/registry/secrets/`). */
  prefixes: string[];
  /** Every transformer of every provider, in order; the first encrypts. */
  transformers: Transformer[];
}

interface Decoded {
  kv: KeyValue;
  /** Written by another transformer than the first: an update must rewrite it. */
  stale: boolean;
}

export function encryptingStore(inner: Store, rules: ResourceEncryption[]): Store {
  const ruleFor = (key: string): ResourceEncryption | undefined => rules.find((r) => r.prefixes.some((p) => key.startsWith(p)));
  // Decryption is memoized per stored KeyValue (the inner store shares them between reads, lists and events).
  const decoded = new WeakMap<KeyValue, Decoded>();

  const encode = (key: string, obj: KubeObject): KubeObject => {
    const rule = ruleFor(key);
    const t = rule?.transformers[0];
    if (!t || t.prefix === '') return obj;
    const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
    const plaintext = Buffer.from(JSON.stringify({ ...obj, metadata: meta }));
    return { metadata: {}, [ENVELOPE_FIELD]: t.prefix + t.encrypt(plaintext, key).toString('base64') } as KubeObject;
  };

  const decode = (kv: KeyValue): Decoded => {
    const known = decoded.get(kv);
    if (known) return known;
    const rule = ruleFor(kv.key);
    let result: Decoded;
    const sealed = (kv.object as Record<string, unknown>)[ENVELOPE_FIELD];
    if (typeof sealed !== 'string') {
      if (rule && !rule.transformers.some((t) => t.prefix === '')) throw new Error(`${kv.key}: no matching prefix found: the stored data is not encrypted and identity is not a configured provider`);
      result = { kv, stale: Boolean(rule && rule.transformers[0]!.prefix !== '') };
    } else {
      const all = rule?.transformers ?? rules.flatMap((r) => r.transformers);
      const t = all.find((x) => x.prefix !== '' && sealed.startsWith(x.prefix));
      if (!t) throw new Error(`${kv.key}: no matching prefix found for the stored data (${sealed.split(':').slice(0, 5).join(':')})`);
      const plaintext = t.decrypt(Buffer.from(sealed.slice(t.prefix.length), 'base64'), kv.key);
      const obj = JSON.parse(plaintext.toString('utf8')) as KubeObject;
      obj.metadata = { ...obj.metadata, resourceVersion: String(kv.modRevision) };
      result = { kv: keyValueOf(kv.key, storedBytes(JSON.stringify(obj)), kv.modRevision, kv.createRevision, obj), stale: rule?.transformers[0] !== t };
    }
    decoded.set(kv, result);
    return result;
  };
  const plain = (kv: KeyValue): KeyValue => decode(kv).kv;

  return {
    async get(key) {
      const kv = await inner.get(key);
      return kv && plain(kv);
    },
    async list(prefix): Promise<ListResult> {
      const r = await inner.list(prefix);
      return { revision: r.revision, items: r.items.map(plain) };
    },
    async create(key, object) {
      return plain(await inner.create(key, encode(key, object)));
    },
    async guaranteedUpdate(key, tryUpdate, opts) {
      const kv = await inner.guaranteedUpdate(key, async (current) => {
        const d = current && decode(current);
        const next = await tryUpdate(d?.kv);
        if (d && next === d.kv.object && !d.stale) return current!.object;
        return encode(key, next);
      }, opts);
      return plain(kv);
    },
    async delete(key, opts) {
      const precondition = opts?.precondition;
      return plain(await inner.delete(key, { ...opts, precondition: precondition && ((current) => precondition(plain(current))) }));
    },
    watch(prefix: string, opts: WatchOptions, watcher: Watcher) {
      inner.watch(prefix, opts, {
        onEvent: (ev: StoreEvent) => watcher.onEvent({ ...ev, kv: plain(ev.kv), prev: ev.prev && plain(ev.prev) }),
        onClose: watcher.onClose,
        onProgress: watcher.onProgress,
      });
    },
    revision: () => inner.revision(),
    compactedRevision: () => inner.compactedRevision(),
    compact: (revision) => inner.compact(revision),
    close: () => inner.close(),
  };
}
