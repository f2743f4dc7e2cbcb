// Upstream's apiserver identity (KEP-1965, on by default): each kube-apiserver keeps a Lease in kube-system named for
// its host, `apiserver-<base32 of sha256 over the hostname and "kube-apiserver">`, labelled
// apiserver.kubernetes.io/identity=kube-apiserver and kubernetes.io/hostname, held by `<name>_<uuid>` of this run and
// renewed every 10 s for 3600 s; an hourly collector deletes the expired identity leases of apiservers gone.
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isStatusError } from '../apimachinery/errors.js';
import { formatMicroTime, preciseNow } from '../apimachinery/time.js';
import { systemContext } from '../registry/context.js';
import { deleteObject } from '../registry/generic/delete.js';
import { update } from '../registry/generic/update.js';
import type { RegistrySet } from '../registry/index.js';
import { every } from './periodic.js';

export const IDENTITY_LABEL = 'apiserver.kubernetes.io/identity';
const COMPONENT = 'kube-apiserver';
const DURATION_S = 3600;
const RENEW_MS = 10_000;
const GC_MS = 3_600_000;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, without padding (Go's base32.StdEncoding.WithPadding(NoPadding)). */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

/** Each value prefixed by its length in two bytes, as cryptobyte's AddUint16LengthPrefixed writes it. */
const lengthPrefixed = (...values: string[]): Buffer => Buffer.concat(values.flatMap((v) => {
  const bytes = Buffer.from(v);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return [length, bytes];
}));

/** The lease name (the APIServerID) of an apiserver on `host`. */
export function apiserverIdentity(host: string): string {
  const hash = createHash('sha256').update(lengthPrefixed(host, COMPONENT)).digest();
  return `apiserver-${base32(hash.subarray(0, 16)).toLowerCase()}`;
}

/** Keeps this apiserver's identity lease and collects expired ones; returns the stop function. */
export function maintainIdentityLease(regs: RegistrySet, onError: (err: unknown) => void, o: { host?: string; now?: () => number; gcEveryMs?: number } = {}): () => void {
  const host = o.host ?? hostname();
  const now = o.now ?? preciseNow;
  const name = apiserverIdentity(host);
  const holderIdentity = `${name}_${randomUUID()}`;
  const ctx = systemContext('kube-system');
  const renew = async (): Promise<void> => {
    const reg = regs.get('coordination.k8s.io', 'v1', 'leases');
    if (!reg) return;
    await update(reg, ctx, {
      name,
      createIfMissing: true,
      build: (current) => ({
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
        ...current,
        metadata: { ...current?.metadata, name, namespace: 'kube-system', labels: { ...current?.metadata?.labels, [IDENTITY_LABEL]: COMPONENT, 'kubernetes.io/hostname': host } },
        spec: { ...current?.spec, holderIdentity, leaseDurationSeconds: DURATION_S, renewTime: formatMicroTime(now()) },
      }),
    });
  };
  const collect = async (): Promise<void> => {
    const reg = regs.get('coordination.k8s.io', 'v1', 'leases');
    if (!reg) return;
    const { items } = await reg.list(ctx, { labelSelector: `${IDENTITY_LABEL}=${COMPONENT}` });
    for (const kv of items) {
      const lease = kv.object;
      const renewed = Date.parse(lease.spec?.renewTime ?? '');
      const duration = Number(lease.spec?.leaseDurationSeconds ?? 0);
      if (lease.metadata?.name === name || !(renewed + duration * 1000 < now())) continue;
      await deleteObject(reg, ctx, lease.metadata!.name!, {}).catch((err: unknown) => {
        if (!(isStatusError(err) && err.code === 404)) throw err;
      });
    }
  };
  const timers = [every(RENEW_MS, renew, onError, { now: true }), every(o.gcEveryMs ?? GC_MS, collect, onError, { now: true })];
  return () => timers.forEach(clearInterval);
}
