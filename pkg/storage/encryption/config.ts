// --encryption-provider-config: apiserver.config.k8s.io/v1 EncryptionConfiguration (YAML or JSON), each entry
// naming resources ("secrets", "deployments.apps", "*.apps", "*." for every core resource, "*.*" for all) and the
// providers that protect them. Upstream: apiserver/pkg/server/options/encryptionconfig.
import { readFile } from 'node:fs/promises';
import { parseYaml } from '../../apimachinery/yaml.js';
import type { Store } from '../interface.js';
import { transformersOf, type ProviderConfig } from './providers.js';
import { encryptingStore, type ResourceEncryption } from './store.js';

export interface StoredResource {
  group: string;
  plural: string;
}

interface EncryptionConfiguration {
  apiVersion?: string;
  kind?: string;
  resources?: { resources?: string[]; providers?: ProviderConfig[] }[];
}

const prefixOf = (r: StoredResource): string => (r.group ? `/registry/${r.group}/${r.plural}/` : `/registry/${r.plural}/`);

export function parseEncryptionConfiguration(text: string, known: StoredResource[]): ResourceEncryption[] {
  const doc = parseYaml(text) as EncryptionConfiguration | null;
  if (!doc || doc.kind !== 'EncryptionConfiguration') throw new Error(`kind "${doc?.kind ?? ''}" is not EncryptionConfiguration`);
  if (doc.apiVersion !== 'apiserver.config.k8s.io/v1') throw new Error(`apiVersion "${doc.apiVersion ?? ''}" is not apiserver.config.k8s.io/v1`);
  if (!doc.resources?.length) throw new Error('resources: at least one entry is required');
  return doc.resources.map((entry, i) => {
    if (!entry.resources?.length) throw new Error(`resources[${i}].resources: at least one resource is required`);
    if (!entry.providers?.length) throw new Error(`resources[${i}].providers: at least one provider is required`);
    const prefixes = entry.resources.flatMap((name) => {
      const dot = name.indexOf('.');
      const [plural, group] = dot < 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot + 1)];
      if (plural === '*' && group === '*') return known.map(prefixOf);
      if (plural === '*') return known.filter((r) => r.group === group).map(prefixOf);
      return [prefixOf({ group, plural })];
    });
    const transformers = entry.providers.flatMap((p, j) => {
      try {
        return transformersOf(p);
      } catch (e) {
        throw new Error(`resources[${i}].providers[${j}]: ${(e as Error).message}`);
      }
    });
    return { prefixes, transformers };
  });
}

/** The store wrapped by the configuration of `path`; throws (at start) on a bad file. */
export async function withEncryptionAtRest(store: Store, path: string, known: StoredResource[]): Promise<Store> {
  let rules: ResourceEncryption[];
  try {
    rules = parseEncryptionConfiguration(await readFile(path, 'utf8'), known);
  } catch (e) {
    throw new Error(`--encryption-provider-config ${path}: ${(e as Error).message}`);
  }
  return encryptingStore(store, rules);
}
