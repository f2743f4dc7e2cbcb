// --admission-control-config-file: an AdmissionConfiguration (apiserver.config.k8s.io/v1, or the
// older apiserver.k8s.io/v1alpha1) whose plugins[] carry each plugin's configuration inline or in
// a file named by `path`, relative to the configuration file (upstream: apiserver/pkg/admission/config.go).
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseYaml } from '../apimachinery/yaml.js';

const API_VERSIONS = ['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1alpha1'];

/** Each plugin's configuration object by plugin name. */
export type PluginConfigs = Map<string, Record<string, unknown>>;

export async function readAdmissionConfiguration(file: string | undefined): Promise<PluginConfigs> {
  const out: PluginConfigs = new Map();
  if (!file) return out;
  const doc = parseDoc(await readFile(file, 'utf8'), file);
  if (doc.kind !== 'AdmissionConfiguration' || !API_VERSIONS.includes(String(doc.apiVersion))) {
    throw new Error(`${file}: not an AdmissionConfiguration of ${API_VERSIONS.join(' or ')} (got kind ${JSON.stringify(doc.kind)}, apiVersion ${JSON.stringify(doc.apiVersion)})`);
  }
  const plugins = doc.plugins ?? [];
  if (!Array.isArray(plugins)) throw new Error(`${file}: plugins must be a list`);
  for (const [i, p] of (plugins as Array<Record<string, unknown>>).entries()) {
    const name = p?.name;
    if (typeof name !== 'string' || !name) throw new Error(`${file}: plugins[${i}].name is required`);
    if (p.configuration !== undefined && p.configuration !== null) {
      if (typeof p.configuration !== 'object') throw new Error(`${file}: plugins[${i}].configuration must be an object`);
      out.set(name, p.configuration as Record<string, unknown>);
    } else if (typeof p.path === 'string' && p.path) {
      const path = isAbsolute(p.path) ? p.path : resolve(dirname(file), p.path);
      out.set(name, parseDoc(await readFile(path, 'utf8'), path));
    }
  }
  return out;
}

function parseDoc(text: string, file: string): Record<string, any> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file}: expected an object`);
  return doc as Record<string, any>;
}

/** A plugin configuration must be of the kind (and one of the apiVersions) the plugin reads. */
export function expectKind(name: string, config: Record<string, unknown>, kind: string, apiVersions: string[]): void {
  if (config.kind !== kind || !apiVersions.includes(String(config.apiVersion))) {
    throw new Error(`admission plugin ${name}: configuration must be a ${kind} of ${apiVersions.join(' or ')} (got kind ${JSON.stringify(config.kind)}, apiVersion ${JSON.stringify(config.apiVersion)})`);
  }
}

/** A plugin that cannot start on its configuration, worded as upstream's plugin initialization. */
export const pluginInitError = (name: string, why: string): Error => new Error(`couldn't init admission plugin "${name}": ${why}`);
