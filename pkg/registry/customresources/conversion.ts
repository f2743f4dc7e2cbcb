// Conversion between a custom resource's versions (upstream: apiextensions-apiserver pkg/apiserver/conversion):
// strategy None rewrites apiVersion; strategy Webhook POSTs a ConversionReview (the first of
// conversionReviewVersions this server speaks, v1 or v1beta1) to the webhook's URL, or to one of the endpoints of the
// service it names (as admission webhooks are called), trusting caBundle. A failure is the error of upstream's webhookConverter, which
// the request answers with (a 500 whose reason is empty).
import { randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import { undici, type Undici } from '../../apimachinery/undici.js';
import type { CustomResourceConversion } from '../../../api/apiextensions/v1/index.js';
import { apiVersionOf, type KubeObject } from '../../../api/types.js';
import { StatusError } from '../../apimachinery/errors.js';
import { goHttpsTransportError } from '../../apimachinery/go-net-errors.js';
import { responseError } from '../../apimachinery/client-go-errors.js';
import { endpointUrl, resolveServiceEndpoint, type ServiceGetter } from '../../apimachinery/service-endpoint.js';
import { printedUrl, webhookUrl } from '../../apimachinery/webhook-url.js';

export interface Converter {
  /** Whether convert answers synchronously (no webhook). */
  readonly sync: boolean;
  /** The object at `version` of the group; an object already there comes back unchanged (the same object). */
  convert(obj: KubeObject, version: string): KubeObject | Promise<KubeObject>;
  close(): void;
}

/** Upstream's webhook rest client's timeout (setGlobalDefaults), sent as the request's timeout parameter too. */
const WEBHOOK_TIMEOUT_MS = 30_000;

export function noneConverter(group: string): Converter {
  return {
    sync: true,
    convert: (obj, version) => rewriteApiVersion(obj, apiVersionOf(group, version)),
    close: () => {},
  };
}

export const rewriteApiVersion = (o: KubeObject, apiVersion: string): KubeObject =>
  (o.apiVersion === apiVersion ? o : { ...o, apiVersion });

/** A conversion's failure: a plain error upstream's handlers answer with a 500 and no reason. */
const conversionError = (message: string): StatusError => new StatusError(500, '', message);

/** The ConversionReview versions this server speaks, as upstream's client manager registers them. */
const REVIEW_VERSIONS = ['v1', 'v1beta1'];

/** Go's schema.GroupVersionKind.String() of an object. */
const gvkOf = (o: KubeObject): string => `${String(o.apiVersion ?? '')}, Kind=${String(o.kind ?? '')}`;

/** Upstream's validateConvertedObject: the converted object is the same object (its kind, name, namespace and UID). */
function convertedObjectError(from: KubeObject, to: KubeObject): string | undefined {
  const checks: [string, unknown, unknown][] = [
    ['kind', from.kind, to.kind],
    ['name', from.metadata?.name, to.metadata?.name],
    ['namespace', from.metadata?.namespace, to.metadata?.namespace],
    ['UID', from.metadata?.uid, to.metadata?.uid],
  ];
  for (const [what, a, b] of checks) {
    if ((a ?? '') !== (b ?? '')) return `must have the same ${what}: ${String(a ?? '')} != ${String(b ?? '')}`;
  }
  return undefined;
}

/** Upstream's restoreObjectMeta: the original metadata with the converted object's labels and annotations. */
function restoredMeta(from: KubeObject, to: KubeObject): Record<string, unknown> | string {
  const meta = to.metadata as unknown;
  if (meta === undefined) return 'missing metadata in converted object';
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) return 'invalid metadata in converted object';
  const out: Record<string, unknown> = { ...from.metadata };
  for (const field of ['labels', 'annotations'] as const) {
    const value = (meta as Record<string, unknown>)[field];
    if (value === undefined || value === null) {
      delete out[field];
      continue;
    }
    if (typeof value !== 'object' || Array.isArray(value)) return `invalid metadata.${field} in converted object`;
    const bad = Object.entries(value).find(([, v]) => typeof v !== 'string');
    if (bad) return `metadata.${field}[${bad[0]}] must be a string in converted object`;
    out[field] = value;
  }
  return out;
}

export function createConverter(group: string, conversion: CustomResourceConversion | undefined, services: ServiceGetter): Converter {
  if (conversion?.strategy !== 'Webhook') return noneConverter(group);
  const cfg = conversion.webhook?.clientConfig ?? {};
  const reviewVersion = (conversion.webhook?.conversionReviewVersions ?? []).find((v) => REVIEW_VERSIONS.includes(v));
  const ca = cfg.caBundle ? Buffer.from(cfg.caBundle, 'base64').toString('utf8') : undefined;
  const agents = new Map<string, Agent>();
  const agentFor = (u: Undici, servername?: string): Agent => {
    const key = servername ?? '';
    let a = agents.get(key);
    if (!a) {
      a = new u.Agent({ connect: { ca, servername, rejectUnauthorized: true } });
      agents.set(key, a);
    }
    return a;
  };
  /** POSTs the review; the answer's body, or the rest client's error text. */
  const post = async (review: unknown): Promise<Record<string, any>> => {
    // the CRD's validation requires a URL or a service
    const shown = webhookUrl(cfg)!;
    shown.u.searchParams.set('timeout', `${WEBHOOK_TIMEOUT_MS / 1000}s`);
    const failed = (why: string): Error => new Error(`Post "${printedUrl(shown)}": ${why}`);
    let target = shown.u;
    let servername: string | undefined;
    if (cfg.service) {
      const ep = resolveServiceEndpoint(services, cfg.service);
      if (!ep.ok) throw failed(ep.message);
      target = new URL(`${endpointUrl(ep)}${cfg.service.path ?? ''}`);
      target.search = shown.u.search;
      servername = shown.u.hostname;
    }
    const http = await undici();
    let res;
    try {
      res = await http.request(target, {
        method: 'POST', dispatcher: agentFor(http, servername), body: JSON.stringify(review),
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
    } catch (err) {
      const e = err as Error & { cause?: Error };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') throw failed('context deadline exceeded');
      throw failed(goHttpsTransportError((e.cause ?? e) as NodeJS.ErrnoException, target.hostname.replace(/^\[(.*)\]$/, '$1'), Number(target.port) || 443, servername));
    }
    const text = await res.body.text();
    if (res.statusCode < 200 || res.statusCode >= 300) {
      const type = res.headers['content-type'];
      throw new Error(responseError(res.statusCode, Array.isArray(type) ? type[0] : type, text));
    }
    return JSON.parse(text) as Record<string, any>;
  };
  /** Upstream's getConvertedObjectsFromResponse: the converted objects, or why the answer is not usable. */
  const convertedObjects = (body: Record<string, any>, uid: string): unknown[] => {
    const expected = `apiextensions.k8s.io/${reviewVersion}`;
    // v1beta1 answers were never checked for their kind or uid
    if (reviewVersion === 'v1' && (body.apiVersion !== expected || body.kind !== 'ConversionReview')) {
      throw new Error(`expected webhook response of ${expected}, Kind=ConversionReview, got ${gvkOf(body)}`);
    }
    const response = body.response as Record<string, any> | undefined | null;
    if (!response) throw new Error('no response provided');
    if (reviewVersion === 'v1' && (response.uid ?? '') !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
    const result = response.result as { status?: string; message?: string } | undefined;
    if (result?.status !== 'Success') {
      throw new Error(result?.message || `response.result.status was '${result?.status ?? ''}', not 'Success'`);
    }
    return (response.convertedObjects ?? []) as unknown[];
  };
  return {
    sync: false,
    async convert(obj, version) {
      const desired = apiVersionOf(group, version);
      if (obj.apiVersion === desired) return obj;
      const gvk = gvkOf(obj);
      if (!reviewVersion) throw conversionError('no supported conversion review versions');
      const uid = randomUUID();
      const review = {
        apiVersion: `apiextensions.k8s.io/${reviewVersion}`, kind: 'ConversionReview',
        request: { uid, desiredAPIVersion: desired, objects: [obj] },
      };
      let converted: unknown[];
      try {
        converted = convertedObjects(await post(review), uid);
      } catch (err) {
        throw conversionError(`conversion webhook for ${gvk} failed: ${(err as Error).message}`);
      }
      if (converted.length !== 1) throw conversionError(`conversion webhook for ${gvk} returned ${converted.length} objects, expected 1`);
      const out = converted[0] as KubeObject;
      const invalid = (why: string): StatusError => conversionError(`conversion webhook for ${gvk} returned invalid object at index 0: ${why}`);
      if (out === null || typeof out !== 'object' || Array.isArray(out)) throw invalid('not an object');
      if (out.apiVersion !== desired) throw invalid(`invalid groupVersion (expected ${desired}, received ${String(out.apiVersion ?? '')})`);
      if (out.kind !== obj.kind) throw invalid(`invalid kind (expected ${String(obj.kind)}, received ${String(out.kind ?? '')})`);
      const changed = convertedObjectError(obj, out);
      if (changed) throw conversionError(`conversion webhook for ${gvk} returned invalid object: ${changed}`);
      const meta = restoredMeta(obj, out);
      if (typeof meta === 'string') throw conversionError(`conversion webhook for ${gvk} returned invalid metadata: ${meta}`);
      return { ...out, metadata: meta } as KubeObject;
    },
    close: () => {
      for (const a of agents.values()) void a.close();
      agents.clear();
    },
  };
}
