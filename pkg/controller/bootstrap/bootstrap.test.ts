// The bootstrap signer and token cleaner: the pure signing of cluster-info, then both controllers against a real
// apiserver, run with their own service accounts (stop() fails on any RBAC refusal of their bootstrap roles).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { detachedSignature } from '../../apimachinery/bootstrap-token.js';
import { eventually, startHarness, type Harness } from '../../../test/integration/workloads-harness.js';
import { signedClusterInfo } from './bootstrap-signer.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const KUBECONFIG = 'apiVersion: v1\nclusters:\n- cluster:\n    server: https://127.0.0.1:6443\n  name: ""\nkind: Config\n';

const token = (id: string, secret: string, data: Record<string, string> = {}, type = 'bootstrap.kubernetes.io/token'): KubeObject => ({
  apiVersion: 'v1', kind: 'Secret', type, metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
  stringData: { 'token-id': id, 'token-secret': secret, 'usage-bootstrap-signing': 'true', ...data },
});
/** The stored form (data in base64), for the pure function. */
const stored = (s: KubeObject): KubeObject => {
  const { stringData, ...rest } = s;
  return { ...rest, data: Object.fromEntries(Object.entries(stringData as Record<string, string>).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) };
};

describe('signedClusterInfo', () => {
  it('one signature per signing token; stale ones dropped; other keys kept; nothing without a kubeconfig', () => {
    const secrets = [
      token('aaaaaa', 'aaaaaaaaaaaaaaaa', { expiration: '2026-03-01T13:00:00Z' }), token('bbbbbb', 'bbbbbbbbbbbbbbbb'),
      token('cccccc', 'cccccccccccccccc', { 'usage-bootstrap-signing': 'false' }), token('dddddd', 'dddddddddddddddd', { expiration: '2026-03-01T11:00:00Z' }),
    ].map(stored);
    const r = signedClusterInfo({ kubeconfig: KUBECONFIG, other: 'x', 'jws-kubeconfig-zzzzzz': 'old', 'jws-kubeconfig-aaaaaa': 'old' }, secrets, NOW);
    expect(r).toEqual({
      data: {
        kubeconfig: KUBECONFIG, other: 'x',
        'jws-kubeconfig-aaaaaa': detachedSignature(KUBECONFIG, 'aaaaaa', 'aaaaaaaaaaaaaaaa'),
        'jws-kubeconfig-bbbbbb': detachedSignature(KUBECONFIG, 'bbbbbb', 'bbbbbbbbbbbbbbbb'),
      },
      nextExpiry: Date.parse('2026-03-01T13:00:00Z'),
    });
    expect(signedClusterInfo({ other: 'x' }, secrets, NOW)).toBeUndefined();
  });
});

describe('bootstrapsigner and tokencleaner controllers', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(['bootstrapsigner', 'tokencleaner']); }, 60_000);
  afterAll(async () => { await h?.stop(); });

  const clusterInfo = (): Promise<KubeObject> => h.c.configMaps('kube-public').get('cluster-info');
  const jwsKeys = (cm: KubeObject): Record<string, string> =>
    Object.fromEntries(Object.entries((cm.data ?? {}) as Record<string, string>).filter(([k]) => k.startsWith('jws-kubeconfig-')));

  it('signs cluster-info with each signing token, re-signs on change, and unsigns a removed token', async () => {
    await h.c.configMaps('kube-public').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info' }, data: { kubeconfig: KUBECONFIG } });
    await h.c.secrets('kube-system').create(token('signer', '0123456789abcdef'));
    await h.c.secrets('kube-system').create(token('nosign', '0123456789abcdef', { 'usage-bootstrap-signing': '' }));
    const signed = await eventually(clusterInfo, (cm) => Object.keys(jwsKeys(cm)).length > 0, 'cluster-info signed');
    expect(jwsKeys(signed)).toEqual({ 'jws-kubeconfig-signer': detachedSignature(KUBECONFIG, 'signer', '0123456789abcdef') });

    const next = `${KUBECONFIG}# changed\n`;
    await h.c.configMaps('kube-public').patch('cluster-info', 'merge', { data: { kubeconfig: next } });
    await eventually(clusterInfo, (cm) => cm.data?.['jws-kubeconfig-signer'] === detachedSignature(next, 'signer', '0123456789abcdef'), 're-signed');

    await h.c.secrets('kube-system').delete('bootstrap-token-signer');
    const unsigned = await eventually(clusterInfo, (cm) => Object.keys(jwsKeys(cm)).length === 0, 'signature removed');
    expect(unsigned.data).toEqual({ kubeconfig: next });
  }, 30_000);

  it('deletes expired tokens at once and others at their expiration; leaves other Secrets alone', async () => {
    const gone = async (name: string): Promise<boolean> => h.c.secrets('kube-system').get(name).then(() => false, () => true);
    await h.c.secrets('kube-system').create(token('expird', '0123456789abcdef', { expiration: '2020-01-01T00:00:00Z' }));
    await h.c.secrets('kube-system').create(token('garble', '0123456789abcdef', { expiration: 'not a time' }));
    await h.c.secrets('kube-system').create(token('opaque', '0123456789abcdef', { expiration: '2020-01-01T00:00:00Z' }, 'Opaque'));
    await h.c.secrets('kube-system').create(token('forevr', '0123456789abcdef'));
    const soon = new Date(Date.now() + 1_500).toISOString();
    await h.c.secrets('kube-system').create(token('soonex', '0123456789abcdef', { expiration: soon }));
    await eventually(() => gone('bootstrap-token-expird'), Boolean, 'the expired token deleted');
    await eventually(() => gone('bootstrap-token-garble'), Boolean, 'the token with an unreadable expiration deleted');
    expect(await gone('bootstrap-token-soonex')).toBe(false);
    await eventually(() => gone('bootstrap-token-soonex'), Boolean, 'the token deleted at its expiration', 10_000);
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(soon));
    expect(await gone('bootstrap-token-opaque')).toBe(false);
    expect(await gone('bootstrap-token-forevr')).toBe(false);
  }, 30_000);
});
