// What the aggregator reads from an extension apiserver: its discovery document (GET /apis/<group>/<version>, an
// APIResourceList) into the GroupVersion shape our discovery documents are built from, and its OpenAPI v3 document
// of the group-version, served as it is next to ours (as upstream's aggregator downloads and serves it).
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../../apimachinery/undici.js';
import type { GroupVersion, ResourceType, Subresource, Verb } from '../../../api/types.js';
import type { RemoteSwagger } from '../openapi/v2-merge.js';
import { AGGREGATOR_IDENTITY } from './transport.js';

interface APIResource {
  name: string;
  singularName?: string;
  namespaced?: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
}

const CHECK_TIMEOUT_MS = 5_000;

/** GET <url> as the aggregator: the parsed body (undefined when not JSON), or an Error saying what went wrong. */
async function getJson(agent: Agent, url: string): Promise<unknown> {
  const { request } = await undici();
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      dispatcher: agent, headers: { ...AGGREGATOR_IDENTITY, accept: 'application/json' },
      headersTimeout: CHECK_TIMEOUT_MS, bodyTimeout: CHECK_TIMEOUT_MS, signal: AbortSignal.timeout(CHECK_TIMEOUT_MS + 1_000),
    });
  } catch (err) {
    const e = err as Error & { cause?: Error };
    throw new Error(`failing or missing response from ${url}: ${e.cause?.message ?? e.message}`);
  }
  const text = await res.body.text().catch(() => '');
  // As upstream: anything in the 200s or 300s passes the check.
  if (res.statusCode < 200 || res.statusCode >= 300) {
    throw Object.assign(new Error(`failing or missing response from ${url}: bad status from ${url}: ${res.statusCode}`), { statusCode: res.statusCode });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What the server does not serve (404) is undefined; any other failure is thrown, so that a document read before is
 * kept through a passing outage rather than dropped from our index while clients still follow its links.
 */
const unlessNotFound = (p: Promise<unknown>): Promise<unknown> =>
  p.catch((err: unknown) => {
    if ((err as { statusCode?: number }).statusCode === 404) return undefined;
    throw err;
  });

/** GET <base>/apis/<group>/<version>: the availability check, and the discovery document. */
export const fetchDiscovery = (agent: Agent, base: string, group: string, version: string): Promise<unknown> =>
  getJson(agent, `${base}/apis/${group}/${version}`);

/**
 * The extension apiserver's OpenAPI v3 document of the group-version (found through its /openapi/v3 index), if it has
 * one: a server without the index (custom metrics adapters, older metrics-servers) has none, and its OpenAPI v2 is
 * still read.
 */
export async function fetchOpenApiV3(agent: Agent, base: string, group: string, version: string): Promise<unknown> {
  const index = await unlessNotFound(getJson(agent, `${base}/openapi/v3`)) as { paths?: Record<string, { serverRelativeURL?: string }> } | undefined;
  const url = index?.paths?.[`apis/${group}/${version}`]?.serverRelativeURL;
  return url?.startsWith('/') ? getJson(agent, base + url) : undefined;
}

/** The resources of an APIResourceList (subresources "x/y" attached to x), or undefined when it is not one. */
export function groupVersionFromDiscovery(group: string, version: string, doc: unknown): GroupVersion | undefined {
  const list = doc as { kind?: string; resources?: APIResource[] } | undefined;
  if (list?.kind !== 'APIResourceList' || !Array.isArray(list.resources)) return undefined;
  const resources = new Map<string, ResourceType>();
  for (const r of list.resources) {
    if (typeof r?.name !== 'string' || r.name.includes('/')) continue;
    resources.set(r.name, {
      group, version, kind: r.kind, plural: r.name, singular: r.singularName || r.kind.toLowerCase(),
      namespaced: Boolean(r.namespaced), verbs: (r.verbs ?? []) as Verb[], definition: '',
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
    });
  }
  for (const r of list.resources) {
    const [parent, sub] = typeof r?.name === 'string' ? r.name.split('/') : [];
    if (parent === undefined || sub === undefined) continue;
    // a subresource without its resource (custom metrics adapters list only "pods/<metric>") gets an empty parent, as upstream's aggregated discovery gives it
    if (!resources.has(parent)) resources.set(parent, { group, version, kind: '', plural: parent, singular: '', namespaced: Boolean(r.namespaced), verbs: [], definition: '' });
    const owner = resources.get(parent)!;
    const s: Subresource = { name: sub!, group: r.group ?? group, version: r.version ?? version, kind: r.kind, verbs: r.verbs ?? [] };
    owner.subresources = [...(owner.subresources ?? []), s];
  }
  return { group, version, resources: [...resources.values()], definitions: {}, remote: true };
}

/** The extension apiserver's OpenAPI v2 document, if it serves one (an object with paths or definitions). */
export async function fetchOpenApiV2(agent: Agent, base: string): Promise<RemoteSwagger | undefined> {
  const doc = await unlessNotFound(getJson(agent, `${base}/openapi/v2`)) as RemoteSwagger | undefined;
  return doc && typeof doc === 'object' && (doc.paths || doc.definitions) ? doc : undefined;
}
