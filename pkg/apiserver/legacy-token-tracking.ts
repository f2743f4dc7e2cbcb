// Upstream's legacytokentracking controller: kube-system's ConfigMap kube-apiserver-legacy-service-account-token-tracking
// says since which day (UTC, 2006-01-02) this apiserver records when legacy service-account tokens are used, which is
// what the legacy-token cleaner waits on before it judges a token unused. A deleted one is made again at most once per
// 30 minutes (upstream's creation limiter); an unreadable date is replaced by today's.
import { isStatusError } from '../apimachinery/errors.js';
import { systemContext } from '../registry/context.js';
import { create } from '../registry/generic/create.js';
import { update } from '../registry/generic/update.js';
import type { RegistrySet } from '../registry/index.js';

export const LEGACY_TOKEN_TRACKING_CONFIGMAP = 'kube-apiserver-legacy-service-account-token-tracking';
const CREATE_EVERY_MS = 30 * 60_000;

const today = (now: number): string => new Date(now).toISOString().slice(0, 10);
const isDate = (s: unknown): boolean =>
  typeof s === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** One pass of the controller; call it on start and then periodically. */
export function legacyTokenTracker(regs: RegistrySet, now: () => number = Date.now): () => Promise<void> {
  let createdAt = -Infinity;
  return async () => {
    const reg = regs.get('', 'v1', 'configmaps');
    if (!reg) return;
    const ctx = systemContext('kube-system');
    const current = reg.peek('kube-system', LEGACY_TOKEN_TRACKING_CONFIGMAP)?.object;
    if (!current) {
      if (now() - createdAt < CREATE_EVERY_MS) return;
      try {
        await create(reg, ctx, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: LEGACY_TOKEN_TRACKING_CONFIGMAP }, data: { since: today(now()) } });
        createdAt = now();
      } catch (err) {
        if (!(isStatusError(err) && err.reason === 'AlreadyExists')) throw err;
      }
    } else if (!isDate(current.data?.since)) {
      await update(reg, ctx, {
        name: LEGACY_TOKEN_TRACKING_CONFIGMAP,
        build: (cm) => ({ ...cm!, data: { ...cm!.data, since: today(now()) } }),
      }).catch((err: unknown) => {
        if (!(isStatusError(err) && (err.code === 404 || err.code === 409))) throw err;
      });
    }
  };
}
