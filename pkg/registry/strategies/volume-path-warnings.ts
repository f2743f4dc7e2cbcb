// Upstream 1.32's warningsForOverlappingVirtualPaths (pkg/api/pod/warnings.go): configMap, secret, downwardAPI and
// projected volumes whose items would write a file where another writes a file or a directory. Upstream walks Go sets
// (random order); here paths are met in the order they are written, which is one of the orders upstream can take.
import type { KubeObject } from '../../../api/types.js';
import { asObj, isObj, list, str } from '../validation/field-checks.js';
import { goQuote } from '../validation/go-values.js';

/** The items' paths of a volume source (KeyToPath or DownwardAPIVolumeFile alike). */
const itemPaths = (items: unknown): string[] => list(items).map((i) => str(asObj(i)?.path));

/**
 * checkForOverlap: the first of `seen` that `path` collides with: the same path, or one being the other's prefix once
 * a '/' is added to the longer (so "test" and "testing" collide as they do upstream); none when either is empty.
 */
function overlapWith(seen: readonly string[], path: string): string | undefined {
  for (const item of seen) {
    if (item === '' || path === '') return undefined;
    if (item === path || `${item}/`.startsWith(path) || `${path}/`.startsWith(item)) return item;
  }
  return undefined;
}

/** checkVolumeMappingForOverlap: each path, trailing slashes trimmed, against those before it. */
function mappingOverlaps(paths: readonly string[], message: string): string[] {
  const out: string[] = [];
  const seen: string[] = [];
  for (const path of paths) {
    const normalized = path.replace(/\/+$/, '');
    const collision = overlapWith(seen, normalized);
    if (collision !== undefined) out.push(`${message}: ${goQuote(normalized)} with ${goQuote(collision)}`);
    if (!seen.includes(normalized)) seen.push(normalized);
  }
  return out;
}

/** The paths one projection source writes and what a warning calls it; undefined for a source that matches no case. */
function projectionPaths(volume: string, source: KubeObject): { paths: string[]; message: string } | undefined {
  const configMap = asObj(source.configMap);
  const secret = asObj(source.secret);
  const downwardAPI = asObj(source.downwardAPI);
  const token = asObj(source.serviceAccountToken);
  const bundle = asObj(source.clusterTrustBundle);
  const name = goQuote(volume);
  if (configMap && Array.isArray(configMap.items)) return { paths: itemPaths(configMap.items), message: `volume ${name} (Projected ConfigMap ${goQuote(str(configMap.name))}): overlapping paths` };
  if (secret && Array.isArray(secret.items)) return { paths: itemPaths(secret.items), message: `volume ${name} (Projected Secret ${goQuote(str(secret.name))}): overlapping paths` };
  if (downwardAPI && Array.isArray(downwardAPI.items)) return { paths: itemPaths(downwardAPI.items), message: `volume ${name} (Projected DownwardAPI): overlapping paths` };
  if (token) return { paths: [str(token.path)], message: `volume ${name} (Projected ServiceAccountToken): overlapping paths` };
  if (bundle) {
    const bundleName = typeof bundle.name === 'string' ? bundle.name : str(bundle.signerName);
    return { paths: [str(bundle.path)], message: `volume ${name} (Projected ClusterTrustBundle ${goQuote(bundleName)}): overlapping paths` };
  }
  return undefined;
}

/** A projected volume: each source's paths against themselves, then, sorted, against every earlier source's. */
function projectedOverlaps(volume: string, sources: readonly unknown[]): string[] {
  const out: string[] = [];
  const all: string[] = [];
  // as upstream, a source matching no case (a configMap without items) goes over the previous source's paths again
  let current: { paths: string[]; message: string } | undefined;
  for (const raw of sources) {
    const source = asObj(raw) ?? {};
    if (!Object.values(source).some((v) => v !== undefined && v !== null)) {
      out.push(`volume ${goQuote(volume)} (Projected) has no sources provided`);
      continue;
    }
    current = projectionPaths(volume, source) ?? current;
    if (!current?.paths.length) continue;
    out.push(...mappingOverlaps(current.paths, current.message));
    const unique = [...new Set(current.paths)];
    out.push(...mappingOverlaps([...unique, ...all].sort(), current.message));
    for (const p of unique) if (!all.includes(p)) all.push(p);
  }
  return out;
}

export function overlappingPathWarnings(volumes: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const raw of volumes) {
    if (!isObj(raw)) continue;
    const name = str(raw.name);
    const configMap = asObj(raw.configMap);
    const secret = asObj(raw.secret);
    const downwardAPI = asObj(raw.downwardAPI);
    const projected = asObj(raw.projected);
    if (configMap && Array.isArray(configMap.items)) {
      out.push(...mappingOverlaps(itemPaths(configMap.items), `volume ${goQuote(name)} (ConfigMap ${goQuote(str(configMap.name))}): overlapping paths`));
    }
    if (secret && Array.isArray(secret.items)) {
      out.push(...mappingOverlaps(itemPaths(secret.items), `volume ${goQuote(name)} (Secret ${goQuote(str(secret.secretName))}): overlapping paths`));
    }
    if (downwardAPI && Array.isArray(downwardAPI.items)) {
      out.push(...mappingOverlaps(itemPaths(downwardAPI.items), `volume ${goQuote(name)} (DownwardAPI): overlapping paths`));
    }
    if (projected) out.push(...projectedOverlaps(name, list(projected.sources)));
  }
  return out;
}
