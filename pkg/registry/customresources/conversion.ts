// Conversion between a custom resource's versions (upstream: apiextensions-apiserver pkg/apiserver/conversion):
// strategy None rewrites apiVersion; strategy Webhook POSTs a ConversionReview (apiextensions.k8s.io/v1) to the
// webhook's URL, or to the service it names (resolved through its Endpoints), trusting caBundle.
import { randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import { undici, type Undici } from '../../apimachinery/undici.js';
import type { ConversionReview, CustomResourceConversion, ServiceReference } from '../../../api/apiextensions/v1/index.js';
import { apiVersionOf, type KubeObject } from '../../../api/types.js';
import { internalError } from '../../apimachinery/errors.js';

export interface Converter {
  /** Whether convert answers synchronously (no webhook). */
  readonly sync: boolean;
  /** The objects at `version` of the group; objects already there come back unchanged (the same objects). */
  convert(objs: KubeObject[], version: string): KubeObject[] | Promise<KubeObject[]>;
  close(): void;
}

/** Where a service's webhook listens: a URL built from its endpoints, and the name its certificate is for. */
export type ServiceResolver = (ref: ServiceReference) => { url: string; servername: string } | undefined;

const WEBHOOK_TIMEOUT_MS = 30_000;

export function noneConverter(group: string): Converter {
  return {
    sync: true,
    convert: (objs, version) => objs.map((o) => rewriteApiVersion(o, apiVersionOf(group, version))),
    close: () => {},
  };
}

export const rewriteApiVersion = (o: KubeObject, apiVersion: string): KubeObject =>
  (o.apiVersion === apiVersion ? o : { ...o, apiVersion });

export function createConverter(group: string, conversion: CustomResourceConversion | undefined, resolve: ServiceResolver): Converter {
  if (conversion?.strategy !== 'Webhook') return noneConverter(group);
  const cfg = conversion.webhook?.clientConfig ?? {};
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
  const target = (): { url: string; servername?: string } => {
    if (cfg.url) return { url: cfg.url };
    if (cfg.service) {
      const r = resolve(cfg.service);
      if (!r) throw internalError(`conversion webhook service ${cfg.service.namespace}/${cfg.service.name} has no endpoints`);
      return r;
    }
    throw internalError('conversion webhook has neither url nor service');
  };
  return {
    sync: false,
    async convert(objs, version) {
      const desired = apiVersionOf(group, version);
      const todo = objs.map((o, i) => [o, i] as const).filter(([o]) => o.apiVersion !== desired);
      if (todo.length === 0) return objs;
      const uid = randomUUID();
      const review: ConversionReview = {
        apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview',
        request: { uid, desiredAPIVersion: desired, objects: todo.map(([o]) => o) },
      };
      const { url, servername } = target();
      let body: ConversionReview;
      try {
        const http = await undici();
        const res = await http.request(url, {
          method: 'POST', dispatcher: agentFor(http, servername), body: JSON.stringify(review),
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          headersTimeout: WEBHOOK_TIMEOUT_MS, bodyTimeout: WEBHOOK_TIMEOUT_MS,
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`webhook answered ${res.statusCode}: ${text.slice(0, 200)}`);
        body = JSON.parse(text) as ConversionReview;
      } catch (err) {
        throw internalError(`conversion webhook for ${group} failed: ${(err as Error).message}`);
      }
      const response = body.response;
      if (!response) throw internalError(`conversion webhook for ${group} failed: no response in the ConversionReview`);
      if (response.uid !== uid) throw internalError(`conversion webhook for ${group} returned a response with uid ${JSON.stringify(response.uid)}, expected ${JSON.stringify(uid)}`);
      if (response.result?.status !== 'Success') {
        throw internalError(`conversion webhook for ${group} failed: ${response.result?.message ?? 'conversion failed'}`);
      }
      const converted = response.convertedObjects ?? [];
      if (converted.length !== todo.length) {
        throw internalError(`conversion webhook for ${group} returned ${converted.length} objects, expected ${todo.length}`);
      }
      const out = [...objs];
      todo.forEach(([orig, i], j) => {
        const c = converted[j]!;
        if (c.apiVersion !== desired) throw internalError(`conversion webhook for ${group} returned invalid converted object at index ${j}: invalid apiVersion ${JSON.stringify(c.apiVersion)}, expected ${JSON.stringify(desired)}`);
        // Only labels and annotations may change in metadata (upstream restores the rest).
        const meta = { ...orig.metadata, labels: c.metadata?.labels, annotations: c.metadata?.annotations };
        if (meta.labels === undefined) delete meta.labels;
        if (meta.annotations === undefined) delete meta.annotations;
        out[i] = { ...c, kind: orig.kind, metadata: meta };
      });
      return out;
    },
    close: () => {
      for (const a of agents.values()) void a.close();
      agents.clear();
    },
  };
}
