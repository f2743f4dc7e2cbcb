// The certificate controllers of kube-controller-manager (upstream pkg/controller/certificates): csrsigning issues
// approved requests for the Kubernetes signers with the cluster CA (--cluster-signing-cert-file/-key-file), or
// marks them Failed (SignerValidationFailure) when the signer's rules refuse them; csrapproving approves kubelet
// client certificates (kubernetes.io/kube-apiserver-client-kubelet) when a SubjectAccessReview lets the requester
// create certificatesigningrequests/nodeclient (or /selfnodeclient for its own node); csrcleaner deletes requests
// once done with (issued, denied or failed after an hour, pending after a day, or expired).
import { X509Certificate } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../../api/types.js';
import { isNotFound, Resources } from '../../client/index.js';
import type { ClusterControllerContext } from '../shared/cluster-context.js';
import { now, workerLoop } from '../shared/controller-utils.js';
import { factsOf, KUBERNETES_SIGNERS, signerRefusal } from './signer-rules.js';

const HOUR = 3600_000;
const has = (csr: KubeObject, type: string): boolean => (csr.status?.conditions ?? []).some((c: { type: string; status: string }) => c.type === type && c.status === 'True');
const pemOf = (b64: unknown): string => Buffer.from(String(b64 ?? ''), 'base64').toString('latin1');

export async function startCsrSigningController(ctx: ClusterControllerContext): Promise<void> {
  const { clusterSigningCertPem: certPem, clusterSigningKeyPem: keyPem, clusterSigningDurationMs: maxMs } = ctx.config;
  if (!certPem || !keyPem) {
    ctx.logger.info({ controller: 'certificatesigningrequest-signing-controller' }, 'no --cluster-signing-cert-file/--cluster-signing-key-file: requests are not signed');
    return;
  }
  const pki = await import('../../pki/csr-signing.js');
  const ca = await pki.loadCa(certPem, keyPem);
  const csrs = ctx.informers.informerFor(Resources.certificateSigningRequests);
  const lister = csrs.lister();
  const loop = workerLoop(ctx, 'certificatesigningrequest-signing-controller', sync);
  csrs.addEventHandler({ onAdd: (o) => loop.enqueue(o), onUpdate: (_o, o) => loop.enqueue(o) });
  const api = ctx.client.resource(Resources.certificateSigningRequests);

  async function sync(name: string): Promise<void> {
    const csr = lister.get(name);
    if (!csr || !has(csr, 'Approved') || has(csr, 'Denied') || has(csr, 'Failed') || csr.status?.certificate) return;
    const signer = String(csr.spec?.signerName ?? '');
    if (!KUBERNETES_SIGNERS.includes(signer)) return;
    const usages = (csr.spec?.usages ?? []) as string[];
    let refusal: string | undefined;
    let request;
    try {
      request = pki.parseCsr(pemOf(csr.spec?.request));
      refusal = signerRefusal(signer, usages, factsOf(request, pki.x509.SubjectAlternativeNameExtension));
    } catch (err) {
      refusal = `unable to parse csr: ${(err as Error).message}`;
    }
    if (refusal || !request) {
      const at = now(ctx.clock);
      const conditions = [...(csr.status?.conditions ?? []), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: refusal, lastUpdateTime: at, lastTransitionTime: at }];
      await api.updateStatus({ ...csr, status: { ...csr.status, conditions } }, { signal: ctx.signal }).catch(ignoreGone);
      return;
    }
    const requested = csr.spec?.expirationSeconds as number | undefined;
    const durationMs = requested ? Math.min(requested * 1000, maxMs) : maxMs;
    const certificate = await pki.signCsr(ca, request, { usages, durationMs, now: (ctx.clock ?? { now: Date.now }).now() });
    await api.updateStatus({ ...csr, status: { ...csr.status, certificate: Buffer.from(certificate).toString('base64') } }, { signal: ctx.signal }).catch(ignoreGone);
    ctx.logger.info({ csr: name, signer }, 'certificate issued');
  }

  await loop.run();
}

const ignoreGone = (err: unknown): void => { if (!isNotFound(err)) throw err; };

export async function startCsrApprovingController(ctx: ClusterControllerContext): Promise<void> {
  const csrs = ctx.informers.informerFor(Resources.certificateSigningRequests);
  const lister = csrs.lister();
  const loop = workerLoop(ctx, 'certificatesigningrequest-approving-controller', sync);
  csrs.addEventHandler({ onAdd: (o) => loop.enqueue(o), onUpdate: (_o, o) => loop.enqueue(o) });

  /** A SubjectAccessReview for the requester (upstream authorize in sarapprove.go). */
  async function allowed(csr: KubeObject, subresource: string): Promise<boolean> {
    const spec = csr.spec ?? {};
    const review = await ctx.client.rest.request<{ status?: { allowed?: boolean } }>({
      method: 'POST', path: '/apis/authorization.k8s.io/v1/subjectaccessreviews', signal: ctx.signal,
      body: {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: { user: spec.username, uid: spec.uid, groups: spec.groups, extra: spec.extra, resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', verb: 'create', subresource } },
      },
    });
    return review.status?.allowed === true;
  }

  async function sync(name: string): Promise<void> {
    const csr = lister.get(name);
    if (!csr || csr.spec?.signerName !== 'kubernetes.io/kube-apiserver-client-kubelet') return;
    if (has(csr, 'Approved') || has(csr, 'Denied') || csr.status?.certificate) return;
    const pki = await import('../../pki/csr-signing.js');
    let facts;
    try {
      facts = factsOf(pki.parseCsr(pemOf(csr.spec?.request)), pki.x509.SubjectAlternativeNameExtension);
    } catch {
      return; // the signer marks it Failed
    }
    if (signerRefusal('kubernetes.io/kube-apiserver-client-kubelet', (csr.spec?.usages ?? []) as string[], facts)) return;
    const message = await approvalMessage(csr, facts.commonName, allowed);
    if (!message) return;
    const at = now(ctx.clock);
    const conditions = [...(csr.status?.conditions ?? []), {
      type: 'Approved', status: 'True', reason: 'AutoApproved', message, lastUpdateTime: at, lastTransitionTime: at,
    }];
    await ctx.client.resource(Resources.certificateSigningRequests).updateSubresource(name, 'approval', { ...csr, status: { ...csr.status, conditions } }, { signal: ctx.signal }).catch(ignoreGone);
  }

  await loop.run();
}

/**
 * Upstream sarapprove.go's recognizers in order, for a request already known to be a kubelet client one: a node
 * asking for its own name (selfnodeclient), then any (nodeclient). The first whose review allows wins.
 */
export async function approvalMessage(csr: KubeObject, commonName: string, allowed: (csr: KubeObject, subresource: string) => Promise<boolean>): Promise<string | undefined> {
  if (csr.spec?.username === commonName && (await allowed(csr, 'selfnodeclient'))) return 'Auto approving self kubelet client certificate after SubjectAccessReview.';
  if (await allowed(csr, 'nodeclient')) return 'Auto approving kubelet client certificate after SubjectAccessReview.';
  return undefined;
}

/** When a request should go (upstream cleaner.go: approved/denied/failed an hour, pending a day, expired). */
export function shouldDelete(csr: KubeObject, nowMs: number, certificateExpiry?: number): boolean {
  const age = nowMs - Date.parse(csr.metadata?.creationTimestamp ?? '');
  const conditionAge = (type: string): number | undefined => {
    const c = (csr.status?.conditions ?? []).find((x: { type: string }) => x.type === type);
    return c ? nowMs - Date.parse(c.lastUpdateTime ?? c.lastTransitionTime ?? csr.metadata?.creationTimestamp) : undefined;
  };
  if (certificateExpiry !== undefined && certificateExpiry < nowMs) return true;
  for (const t of ['Approved', 'Denied', 'Failed']) if ((conditionAge(t) ?? 0) > HOUR && (t !== 'Approved' || csr.status?.certificate)) return true;
  const pending = !(csr.status?.conditions ?? []).length;
  return pending && age > 24 * HOUR;
}

export async function startCsrCleanerController(ctx: ClusterControllerContext): Promise<void> {
  const csrs = ctx.informers.informerFor(Resources.certificateSigningRequests);
  const lister = csrs.lister();
  ctx.informers.start(ctx.signal);
  if (!(await ctx.informers.waitForCacheSync(ctx.signal))) return;
  const expiry = (csr: KubeObject): number | undefined => {
    try { return csr.status?.certificate ? Date.parse(new X509Certificate(pemOf(csr.status.certificate)).validTo) : undefined; } catch { return undefined; }
  };
  const clock = ctx.clock ?? { now: Date.now };
  while (!ctx.signal.aborted) {
    for (const csr of lister.list()) {
      if (!shouldDelete(csr, clock.now(), expiry(csr))) continue;
      await ctx.client.resource(Resources.certificateSigningRequests).delete(csr.metadata!.name!, { signal: ctx.signal }).catch(ignoreGone);
      ctx.logger.info({ csr: csr.metadata!.name }, 'deleted a finished certificate signing request');
    }
    // the timer's abort listener goes when it fires (one added per hour to the controller's signal otherwise)
    await sleep(HOUR, undefined, { signal: ctx.signal }).catch(() => undefined);
  }
}
