// Accept-header negotiation for /api and /apis. client-go sends
//   application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,<same with v2beta1>,application/json
// and decides which form it got from the response Content-Type alone, so the aggregated answer must carry the
// exact media type of the clause it matched.
import type { AggregatedVersion } from './aggregated.js';

export type DiscoveryFormat =
  | { kind: 'aggregated'; version: AggregatedVersion; contentType: string }
  | { kind: 'legacy'; contentType: 'application/json' | 'application/yaml' };

interface Clause {
  type: string;
  params: Record<string, string>;
  q: number;
}

export const aggregatedContentType = (v: AggregatedVersion): string =>
  `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;

export const parseAccept = (header: string | undefined): Clause[] =>
  (header || '*/*').split(',').map((part) => {
    const [type = '', ...rest] = part.split(';').map((s) => s.trim());
    const params: Record<string, string> = {};
    for (const p of rest) {
      const eq = p.indexOf('=');
      if (eq > 0) params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"|"$/g, '');
    }
    const q = params.q === undefined ? 1 : Number(params.q);
    delete params.q;
    return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0 };
  }).filter((c) => c.type !== '' && c.q > 0)
    // Stable sort: equal weights keep the client's order, which is how client-go states its preference.
    .map((c, i) => ({ c, i })).sort((a, b) => b.c.q - a.c.q || a.i - b.i).map(({ c }) => c);

const JSONISH = new Set(['application/json', 'application/*', '*/*']);

/** The first clause we can serve decides; a clause asking for another conversion (as=Table) is skipped. */
export const negotiateDiscovery = (accept: string | undefined): DiscoveryFormat => {
  for (const c of parseAccept(accept)) {
    if (c.params.as !== undefined || c.params.g !== undefined || c.params.v !== undefined) {
      const v = c.params.v;
      if (c.type === 'application/json' && c.params.g === 'apidiscovery.k8s.io'
        && c.params.as === 'APIGroupDiscoveryList' && (v === 'v2' || v === 'v2beta1')) {
        return { kind: 'aggregated', version: v, contentType: aggregatedContentType(v) };
      }
      continue;
    }
    if (JSONISH.has(c.type)) return { kind: 'legacy', contentType: 'application/json' };
    if (c.type === 'application/yaml') return { kind: 'legacy', contentType: 'application/yaml' };
  }
  return { kind: 'legacy', contentType: 'application/json' };
};
