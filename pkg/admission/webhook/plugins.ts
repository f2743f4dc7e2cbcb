// MutatingAdmissionWebhook and ValidatingAdmissionWebhook (upstream: apiserver/pkg/admission/plugin/
// webhook/{mutating,validating}): the configurations come from the registries' watch caches, each
// matching webhook gets an AdmissionReview v1, and its answer admits, refuses or patches.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, internalError, StatusError, type StatusReason } from '../../apimachinery/errors.js';
import { applyJsonPatch } from '../../apimachinery/patch/json-patch.js';
import type { AdmissionDeps } from '../deps.js';
import { addAuditAnnotation, type AdmissionAttributes, type MutatingPlugin, type ValidatingPlugin } from '../interface.js';
import { celValue, evalMatchConditions, requestAuthorizer, withAnswers } from '../policy/cel.js';
import { CallError, callWebhook, type ClientConfig } from './client.js';
import { admissionRequest } from './review.js';
import { isExemptResource, namespaceSelectorMatches, objectSelectorMatches, ruleMatches, type Rule } from './rules.js';

const GROUP = 'admissionregistration.k8s.io';

export interface Webhook {
  name: string;
  clientConfig: ClientConfig;
  rules?: Array<Rule>;
  failurePolicy?: 'Fail' | 'Ignore';
  namespaceSelector?: Record<string, any>;
  objectSelector?: Record<string, any>;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: 'Never' | 'IfNeeded';
  matchConditions?: Array<{ name: string; expression: string }>;
  /** The name of the configuration holding it (not an API field: set when the configurations are read). */
  configuration: string;
}

/** Every webhook of every configuration of that plural, configurations by name, webhooks in their order. */
function webhooksOf(deps: AdmissionDeps, plural: string): Webhook[] {
  const configs = deps.list(GROUP, plural);
  if (!configs.length) return [];
  return [...configs]
    .sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1))
    .flatMap((c) => ((c.webhooks ?? []) as Webhook[]).map((h) => ({ ...h, configuration: c.metadata?.name ?? '' })));
}

/** Whether the request goes to this webhook; throws when a match condition errs under failurePolicy Fail. */
async function shouldCall(h: Webhook, a: AdmissionAttributes, deps: AdmissionDeps): Promise<boolean> {
  if (!(h.rules ?? []).some((r) => ruleMatches(r, a))) return false;
  if (!namespaceSelectorMatches(h.namespaceSelector, a, deps) || !objectSelectorMatches(h.objectSelector, a)) return false;
  if (h.matchConditions?.length) {
    const bindings = {
      object: celValue(a.operation === 'DELETE' ? null : a.object),
      oldObject: celValue(a.oldObject),
      request: celValue(admissionRequest(a, '')),
      authorizer: requestAuthorizer(a),
    };
    const r = await withAnswers(deps.review, () => evalMatchConditions(h.matchConditions, bindings));
    if (r.error !== undefined) {
      if (h.failurePolicy === 'Ignore') return false;
      throw internalError(`failed calling webhook "${h.name}": failed to evaluate match conditions: ${r.error}`);
    }
    if (!r.matches) return false;
  }
  if (a.dryRun && h.sideEffects !== 'None' && h.sideEffects !== 'NoneOnDryRun') {
    throw badRequest(`admission webhook "${h.name}" does not support dry run`);
  }
  return true;
}

/** Upstream's webhookerrors.ToStatusErr: a refusal as the client sees it. */
function rejection(name: string, result: Record<string, any> | undefined): StatusError {
  const deniedBy = `admission webhook "${name}" denied the request`;
  const code = typeof result?.code === 'number' && result.code >= 400 ? result.code : 400;
  const reason = (typeof result?.reason === 'string' ? result.reason : '') as StatusReason;
  const message = result?.message ? `${deniedBy}: ${result.message}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  return new StatusError(code, reason, message, result?.details);
}

/**
 * Calls one webhook. Returns its response (undefined when a failure is ignored); throws the refusal,
 * or an internal error for a failure under failurePolicy Fail.
 */
async function invoke(h: Webhook, a: AdmissionAttributes, deps: AdmissionDeps): Promise<Record<string, any> | undefined> {
  const request = admissionRequest(a);
  let response: Record<string, any>;
  try {
    if (h.admissionReviewVersions && !h.admissionReviewVersions.includes('v1')) {
      throw new CallError(`webhook does not accept known AdmissionReview versions (v1)`);
    }
    const body = await callWebhook(h.clientConfig, deps, { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request }, h.timeoutSeconds ?? 10);
    if (body.apiVersion !== 'admission.k8s.io/v1' || body.kind !== 'AdmissionReview') {
      throw new CallError(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${body.apiVersion ?? ''}, Kind=${body.kind ?? ''}`);
    }
    if (!body.response || typeof body.response !== 'object') throw new CallError('webhook response was absent');
    response = body.response;
    if (response.uid !== request.uid) throw new CallError(`expected response.uid="${String(request.uid)}", got "${String(response.uid ?? '')}"`);
    if (response.patch !== undefined && response.patchType !== 'JSONPatch') {
      throw new CallError(`webhook returned response.patch but not response.patchType`);
    }
  } catch (err) {
    if (!(err instanceof CallError)) throw err;
    if (h.failurePolicy === 'Ignore') {
      return undefined;
    }
    throw internalError(`failed calling webhook "${h.name}": ${err.message}`);
  }
  // the webhook's audit annotations go to the audit event under its name, as upstream keys them
  for (const [k, v] of Object.entries((response.auditAnnotations ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') addAuditAnnotation(a, `${h.name}/${k}`, v);
  }
  for (const w of response.warnings ?? []) if (typeof w === 'string' && w) a.warnings?.push(w);
  if (response.allowed !== true) throw rejection(h.name, response.status);
  return response;
}

/** Replaces the contents of `target` with those of `source` (mutating plugins change the object in place). */
function replaceInPlace(target: KubeObject, source: KubeObject): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, source);
}

export class MutatingWebhook implements MutatingPlugin {
  readonly name = 'MutatingAdmissionWebhook';
  constructor(private readonly deps: AdmissionDeps) {}

  admit(a: AdmissionAttributes): Promise<void> | void {
    if (isExemptResource(a)) return;
    const hooks = webhooksOf(this.deps, 'mutatingwebhookconfigurations');
    if (hooks.length) return this.callAll(a, hooks);
  }

  private async callAll(a: AdmissionAttributes, hooks: Webhook[]): Promise<void> {
    // What the object looked like right after each IfNeeded webhook ran: a later change reinvokes it once.
    const after = new Map<Webhook, unknown>();
    for (const [i, h] of hooks.entries()) {
      if (!(await shouldCall(h, a, this.deps))) continue;
      await this.callAndPatch(h, a, 0, i);
      if (h.reinvocationPolicy === 'IfNeeded') after.set(h, structuredClone(a.object));
    }
    if (!after.size) return;
    for (const [i, h] of hooks.entries()) {
      if (!after.has(h) || isDeepStrictEqual(after.get(h), a.object)) continue;
      if (!(await shouldCall(h, a, this.deps))) continue;
      await this.callAndPatch(h, a, 1, i);
    }
  }

  /** Calls one webhook and applies its patch; the audit event learns whether it mutated the object (upstream's mutation annotation). */
  private async callAndPatch(h: Webhook, a: AdmissionAttributes, round: number, index: number): Promise<void> {
    let mutated = false;
    try {
      const response = await invoke(h, a, this.deps);
      if (!response?.patch || !a.object) return;
      let patched: KubeObject;
      try {
        const ops: unknown = JSON.parse(Buffer.from(String(response.patch), 'base64').toString('utf8'));
        patched = applyJsonPatch(a.object, ops);
      } catch (err) {
        if (h.failurePolicy === 'Ignore') return;
        throw internalError(`failed calling webhook "${h.name}": ${(err as Error).message}`);
      }
      mutated = !isDeepStrictEqual(patched, a.object);
      replaceInPlace(a.object, patched);
    } finally {
      addAuditAnnotation(a, `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({ configuration: h.configuration, webhook: h.name, mutated }));
    }
  }
}

export class ValidatingWebhook implements ValidatingPlugin {
  readonly name = 'ValidatingAdmissionWebhook';
  constructor(private readonly deps: AdmissionDeps) {}

  validate(a: AdmissionAttributes): Promise<void> | void {
    if (isExemptResource(a)) return;
    const configured = webhooksOf(this.deps, 'validatingwebhookconfigurations');
    if (configured.length) return this.callAll(a, configured);
  }

  private async callAll(a: AdmissionAttributes, configured: Webhook[]): Promise<void> {
    const hooks: Webhook[] = [];
    for (const h of configured) if (await shouldCall(h, a, this.deps)) hooks.push(h);
    if (!hooks.length) return;
    // All called at once, as upstream; the first failure in webhook order is the answer.
    const results = await Promise.allSettled(hooks.map((h) => invoke(h, a, this.deps)));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
  }
}
