// MutatingAdmissionWebhook and ValidatingAdmissionWebhook (upstream: apiserver/pkg/admission/plugin/
// webhook/{mutating,validating}): the configurations come from the registries' watch caches, each
// matching webhook gets an AdmissionReview v1, and its answer admits, refuses or patches.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../../../api/types.js';
import { badRequest, internalError, StatusError, type StatusReason } from '../../apimachinery/errors.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionDeps } from '../deps.js';
import { addAuditAnnotation, type AdmissionAttributes, type MutatingPlugin, type ValidatingPlugin } from '../interface.js';
import { celValue, evalMatchConditions, requestAuthorizer, withAnswers } from '../policy/cel.js';
import { CallError, callWebhook, type ClientConfig } from './client.js';
import { applyWebhookJsonPatch } from './patch-failure.js';
import { admissionRequest } from './review.js';
import { isExemptResource, matchedResource, namespaceSelectorMatches, objectSelectorMatches, type Rule } from './rules.js';
import { versioned } from '../versioned.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

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
  /** Exact: only the resources its rules name; Equivalent (the default): their other versions too, converted. */
  matchPolicy?: 'Exact' | 'Equivalent';
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

/**
 * The request as this webhook gets it (converted to the resource its rule names), or undefined when it does not go
 * to it; throws when a match condition errs under failurePolicy Fail.
 */
async function invocation(h: Webhook, a: AdmissionAttributes, deps: AdmissionDeps): Promise<AdmissionAttributes | undefined> {
  const rt = matchedResource(h.rules ?? [], h.matchPolicy, a, deps);
  if (!rt) return undefined;
  if (!namespaceSelectorMatches(h.namespaceSelector, a, deps) || !objectSelectorMatches(h.objectSelector, a)) return undefined;
  const as = await versioned(a, rt, deps);
  if (h.matchConditions?.length) {
    const bindings = {
      object: celValue(as.operation === 'DELETE' ? null : as.object),
      oldObject: celValue(as.oldObject),
      request: celValue(admissionRequest(as, '', a)),
      authorizer: requestAuthorizer(as),
    };
    const r = await withAnswers(deps.review, () => evalMatchConditions(h.matchConditions, bindings));
    if (r.error !== undefined) {
      // upstream's matcher skips the webhook under Ignore; under Fail ShouldCallHook refuses the request (403)
      if (h.failurePolicy === 'Ignore') return undefined;
      throw admissionForbidden(a, r.error);
    }
    if (!r.matches) return undefined;
  }
  if (a.dryRun && h.sideEffects !== 'None' && h.sideEffects !== 'NoneOnDryRun') {
    throw badRequest(`admission webhook "${h.name}" does not support dry run`);
  }
  return as;
}

/** Upstream's webhookerrors.ToStatusErr: a refusal as the client sees it. */
function rejection(name: string, result: Record<string, any> | undefined): StatusError {
  const deniedBy = `admission webhook "${name}" denied the request`;
  const code = typeof result?.code === 'number' && result.code >= 400 ? result.code : 400;
  const reason = (typeof result?.reason === 'string' ? result.reason : '') as StatusReason;
  const message = result?.message ? `${deniedBy}: ${result.message}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  return new StatusError(code, reason, message, result?.details);
}

/** The first AdmissionReview version of the webhook's list that the apiserver speaks (upstream's CreateAdmissionObjects). */
function reviewVersion(h: Webhook): 'v1' | 'v1beta1' {
  const version = (h.admissionReviewVersions ?? ['v1']).find((v): v is 'v1' | 'v1beta1' => v === 'v1' || v === 'v1beta1');
  if (!version) throw new CallError('could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  return version;
}

/**
 * Upstream's VerifyAdmissionResponse: a v1 answer is checked (uid, kind, a patch with its type, none from a validating
 * webhook); a v1beta1 one never was, its patch taken as a JSON patch. What fails is an invalid response.
 */
function verifiedResponse(version: 'v1' | 'v1beta1', body: Record<string, any>, uid: unknown, mutating: boolean): Record<string, any> {
  const invalid = (why: string) => new CallError(`received invalid webhook response: ${why}`);
  const response = body.response as Record<string, any> | undefined;
  if (!response || typeof response !== 'object') throw invalid('webhook response was absent');
  const hasPatch = typeof response.patch === 'string' && response.patch.length > 0;
  if (version === 'v1beta1') return { ...response, patch: mutating ? response.patch : undefined, patchType: mutating && hasPatch ? 'JSONPatch' : undefined };
  if (response.uid !== uid) throw invalid(`expected response.uid="${String(uid)}", got "${String(response.uid ?? '')}"`);
  if (body.apiVersion !== 'admission.k8s.io/v1' || body.kind !== 'AdmissionReview') {
    const [group, v] = String(body.apiVersion ?? '').includes('/') ? String(body.apiVersion).split('/') : ['', String(body.apiVersion ?? '')];
    throw invalid(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${group}/${v}, Kind=${String(body.kind ?? '')}`);
  }
  const typed = response.patchType !== undefined && response.patchType !== null;
  if (!mutating) {
    if (hasPatch) throw invalid('validating webhook may not return response.patch');
    if (typed) throw invalid('validating webhook may not return response.patchType');
    return response;
  }
  if (hasPatch && !typed) throw invalid('webhook returned response.patch but not response.patchType');
  if (!hasPatch && typed) throw invalid('webhook returned response.patchType but not response.patch');
  if (typed && response.patchType === '') throw invalid('webhook returned invalid response.patchType of ""');
  return response;
}

/**
 * Calls one webhook with the request `as` its resource serves it (`asked`: as the client made it). Returns its
 * response (undefined when a failure is ignored); throws the refusal, or an internal error for a failure under
 * failurePolicy Fail.
 */
async function invoke(h: Webhook, as: AdmissionAttributes, asked: AdmissionAttributes, deps: AdmissionDeps, mutating: boolean, failOpen: () => void): Promise<Record<string, any> | undefined> {
  const request = admissionRequest(as, undefined, asked);
  let response: Record<string, any>;
  try {
    const version = reviewVersion(h);
    const body = await callWebhook(h.clientConfig, deps, { apiVersion: `admission.k8s.io/${version}`, kind: 'AdmissionReview', request }, h.timeoutSeconds ?? 10, as.deadline);
    response = verifiedResponse(version, body, request.uid, mutating);
  } catch (err) {
    if (!(err instanceof CallError)) throw err;
    if (h.failurePolicy === 'Ignore') {
      failOpen();
      return undefined;
    }
    throw internalError(`failed calling webhook "${h.name}": ${err.message}`);
  }
  // the webhook's audit annotations go to the audit event under its name, as upstream keys them
  for (const [k, v] of Object.entries((response.auditAnnotations ?? {}) as Record<string, unknown>)) {
    if (typeof v === 'string') addAuditAnnotation(asked, `${h.name}/${k}`, v);
  }
  for (const w of response.warnings ?? []) if (typeof w === 'string' && w) asked.warnings?.push(w);
  if (response.allowed !== true) throw rejection(h.name, response.status);
  return response;
}

/** Replaces the contents of `target` with those of `source` (mutating plugins change the object in place). */
function replaceInPlace(target: KubeObject, source: KubeObject): void {
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, source);
}

/**
 * The object a mutating webhook's answer makes of `object`, as upstream's dispatcher gets it: an undecodable patch
 * is a failed call (subject to failurePolicy), an empty one changes nothing (undefined), a patch for a request without
 * an object (DELETE) or one that does not apply is an internal error, failurePolicy or not.
 */
function applyWebhookPatch(h: Webhook, response: Record<string, any>, object: KubeObject | undefined, failOpen: () => void): KubeObject | undefined {
  let ops: unknown;
  try {
    ops = JSON.parse(Buffer.from(String(response.patch), 'base64').toString('utf8'));
    if (!Array.isArray(ops)) throw new Error(`json: cannot unmarshal ${ops === null ? 'null' : typeof ops} into Go value of type jsonpatch.Patch`);
  } catch (err) {
    if (h.failurePolicy === 'Ignore') return void failOpen();
    throw internalError(`failed calling webhook "${h.name}": received undecodable patch in webhook response: ${(err as Error).message}`);
  }
  if (!ops.length) return undefined;
  if (!object) throw internalError(`admission webhook "${h.name}" attempted to modify the object, which is not supported for this operation`);
  if (response.patchType !== 'JSONPatch') {
    if (h.failurePolicy === 'Ignore') return void failOpen();
    throw internalError(`failed calling webhook "${h.name}": unsupported patch type "${String(response.patchType)}"`);
  }
  const r = applyWebhookJsonPatch(object, ops);
  if ('error' in r) throw internalError(r.error);
  return r.patched as KubeObject;
}

export class MutatingWebhook implements MutatingPlugin {
  readonly name = 'MutatingAdmissionWebhook';
  readonly handlesConnect = true;
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
      const as = await invocation(h, a, this.deps);
      if (!as) continue;
      await this.callAndPatch(h, as, a, 0, i);
      if (h.reinvocationPolicy === 'IfNeeded') after.set(h, cloneJson(a.object));
    }
    if (!after.size) return;
    for (const [i, h] of hooks.entries()) {
      if (!after.has(h) || isDeepStrictEqual(after.get(h), a.object)) continue;
      const as = await invocation(h, a, this.deps);
      if (!as) continue;
      await this.callAndPatch(h, as, a, 1, i);
    }
  }

  /**
   * Calls one webhook and applies its patch to the object it was sent (`as`), then to the request's (converted back
   * when they differ); the audit event learns whether it mutated the object (upstream's mutation annotation).
   */
  private async callAndPatch(h: Webhook, as: AdmissionAttributes, a: AdmissionAttributes, round: number, index: number): Promise<void> {
    let mutated = false;
    // a call that failed and was ignored is marked in the audit event (upstream's failed-open annotation)
    const failOpen = (): void => addAuditAnnotation(a, `failed-open.mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, h.name);
    try {
      const response = await invoke(h, as, a, this.deps, true, failOpen);
      if (!response?.patch) return;
      const patched = applyWebhookPatch(h, response, as.object, failOpen);
      if (!patched) return;
      // decoded into the kind again and defaulted, as upstream's dispatcher does (an injected sidecar gets its
      // container defaults); a subresource's own kind (Scale, Binding) stays as patched
      let decoded = patched;
      if (patched.kind === as.resource.kind) {
        try {
          decoded = this.deps.decode(patched, as.resource);
        } catch (err) {
          throw internalError(`the object patched by webhook "${h.name}" cannot be decoded: ${(err as Error).message}`);
        }
      }
      mutated = !isDeepStrictEqual(decoded, as.object);
      if (!mutated || !a.object) return;
      const back = as.object === a.object ? decoded : await this.convertBack(decoded, as, a);
      replaceInPlace(a.object, back);
    } finally {
      addAuditAnnotation(a, `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({ configuration: h.configuration, webhook: h.name, mutated }));
    }
  }

  private async convertBack(obj: KubeObject, as: AdmissionAttributes, a: AdmissionAttributes): Promise<KubeObject> {
    try {
      return await this.deps.convert(obj, as.resource, a.resource);
    } catch (err) {
      throw internalError(`failed to convert the object patched by webhook back to ${a.resource.group ? `${a.resource.group}/` : ''}${a.resource.version}: ${(err as Error).message}`);
    }
  }
}

export class ValidatingWebhook implements ValidatingPlugin {
  readonly name = 'ValidatingAdmissionWebhook';
  readonly handlesConnect = true;
  constructor(private readonly deps: AdmissionDeps) {}

  validate(a: AdmissionAttributes): Promise<void> | void {
    if (isExemptResource(a)) return;
    const configured = webhooksOf(this.deps, 'validatingwebhookconfigurations');
    if (configured.length) return this.callAll(a, configured);
  }

  private async callAll(a: AdmissionAttributes, configured: Webhook[]): Promise<void> {
    const hooks: Array<[Webhook, AdmissionAttributes]> = [];
    for (const h of configured) {
      const as = await invocation(h, a, this.deps);
      if (as) hooks.push([h, as]);
    }
    if (!hooks.length) return;
    // All called at once, as upstream; the first failure in webhook order is the answer.
    // a call that failed and was ignored is marked in the audit event, by its place among the webhooks called
    const failOpen = (h: Webhook, i: number) => (): void => addAuditAnnotation(a, `failed-open.validating.webhook.admission.k8s.io/round_0_index_${i}`, h.name);
    const results = await Promise.allSettled(hooks.map(([h, as], i) => invoke(h, as, a, this.deps, false, failOpen(h, i))));
    for (const r of results) if (r.status === 'rejected') throw r.reason;
  }
}
