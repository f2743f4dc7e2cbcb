// Kubeconfig loading as clientcmd does it, without exec or auth-provider plugins: KUBECONFIG (a path list whose
// files merge, the first to set a name winning) or ~/.kube/config; the current (or a chosen) context; certificate
// data embedded or in files (relative to the kubeconfig's folder), bearer tokens and token files, basic auth,
// insecure-skip-tls-verify. In-cluster config reads the pod's service-account mount.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parseYaml } from '../apimachinery/yaml.js';
import type { RestConfig } from './config.js';

interface Named<T> { name: string; [k: string]: unknown; cluster?: T; context?: T; user?: T }

export interface KubeconfigCluster {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
}
export interface KubeconfigUser {
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  token?: string;
  tokenFile?: string;
  username?: string;
  password?: string;
  exec?: unknown;
  'auth-provider'?: unknown;
}
export interface KubeconfigContext { cluster?: string; user?: string; namespace?: string }

/** A kubeconfig after merging; `base` is the folder relative paths of each entry resolve against. */
export interface Kubeconfig {
  currentContext?: string;
  clusters: Map<string, { value: KubeconfigCluster; base: string }>;
  users: Map<string, { value: KubeconfigUser; base: string }>;
  contexts: Map<string, KubeconfigContext>;
}

export interface LoadOptions {
  /** Use this context instead of current-context. */
  context?: string;
  /** Environment to read KUBECONFIG and HOME from (tests). */
  env?: NodeJS.ProcessEnv;
}

/** The files to read: an explicit path, else every entry of KUBECONFIG, else ~/.kube/config. */
export const kubeconfigPaths = (path?: string, env: NodeJS.ProcessEnv = process.env): string[] => {
  if (path) return [path];
  const list = (env.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
  if (list.length > 0) return list;
  return [join(env.HOME ?? homedir(), '.kube', 'config')];
};

/** Merges parsed kubeconfig documents; the first to set a name or current-context wins (clientcmd's rule). */
export const mergeKubeconfigs = (docs: { doc: any; base: string }[]): Kubeconfig => {
  const kc: Kubeconfig = { clusters: new Map(), users: new Map(), contexts: new Map() };
  for (const { doc, base } of docs) {
    if (!doc || typeof doc !== 'object') continue;
    if (!kc.currentContext && doc['current-context']) kc.currentContext = String(doc['current-context']);
    for (const c of (doc.clusters ?? []) as Named<KubeconfigCluster>[]) if (!kc.clusters.has(c.name)) kc.clusters.set(c.name, { value: c.cluster ?? {}, base });
    for (const u of (doc.users ?? []) as Named<KubeconfigUser>[]) if (!kc.users.has(u.name)) kc.users.set(u.name, { value: u.user ?? {}, base });
    for (const x of (doc.contexts ?? []) as Named<KubeconfigContext>[]) if (!kc.contexts.has(x.name)) kc.contexts.set(x.name, x.context ?? {});
  }
  return kc;
};

const fromBase64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');
const fileIn = (base: string, p: string): string => (isAbsolute(p) ? p : resolve(base, p));

/** The RestConfig (and namespace) of one context of a merged kubeconfig. */
export const restConfigFromKubeconfig = async (kc: Kubeconfig, contextName?: string): Promise<RestConfig & { namespace: string }> => {
  const name = contextName ?? kc.currentContext;
  if (!name) throw new Error('kubeconfig: no current-context is set and no context was given');
  const ctx = kc.contexts.get(name);
  if (!ctx) throw new Error(`kubeconfig: context "${name}" not found`);
  const cluster = ctx.cluster ? kc.clusters.get(ctx.cluster) : undefined;
  if (!cluster) throw new Error(`kubeconfig: cluster "${ctx.cluster ?? ''}" of context "${name}" not found`);
  if (!cluster.value.server) throw new Error(`kubeconfig: cluster "${ctx.cluster}" has no server`);
  const user = ctx.user ? kc.users.get(ctx.user) : undefined;
  const c = cluster.value;
  const u = user?.value ?? {};
  if (u.exec) throw new Error(`kubeconfig: user "${ctx.user}" uses an exec plugin, which this client does not run`);
  if (u['auth-provider']) throw new Error(`kubeconfig: user "${ctx.user}" uses an auth-provider plugin, which this client does not support`);
  const pem = async (data: string | undefined, file: string | undefined, base: string): Promise<string | undefined> =>
    data ? fromBase64(data) : file ? readFile(fileIn(base, file), 'utf8') : undefined;
  const ub = user?.base ?? cluster.base;
  const cfg: RestConfig & { namespace: string } = {
    host: c.server!.replace(/\/+$/, ''),
    namespace: ctx.namespace || 'default',
  };
  const caData = await pem(c['certificate-authority-data'], c['certificate-authority'], cluster.base);
  if (caData) cfg.caData = caData;
  if (!c['certificate-authority-data'] && c['certificate-authority']) cfg.caFile = fileIn(cluster.base, c['certificate-authority']);
  if (c['insecure-skip-tls-verify']) cfg.insecureSkipTLSVerify = true;
  if (c['tls-server-name']) cfg.tlsServerName = c['tls-server-name'];
  const certData = await pem(u['client-certificate-data'], u['client-certificate'], ub);
  const keyData = await pem(u['client-key-data'], u['client-key'], ub);
  if (certData) cfg.certData = certData;
  if (keyData) cfg.keyData = keyData;
  if (u.token) cfg.bearerToken = u.token;
  else if (u.tokenFile) cfg.bearerTokenFile = fileIn(ub, u.tokenFile);
  if (u.username) { cfg.username = u.username; cfg.password = u.password ?? ''; }
  return cfg;
};

/**
 * Loads a kubeconfig: `path`, else KUBECONFIG (files merged), else ~/.kube/config; the current-context unless
 * `options.context` names another. Files in a KUBECONFIG list that do not exist are skipped, as clientcmd does.
 */
export const loadKubeconfig = async (path?: string, options: LoadOptions = {}): Promise<RestConfig & { namespace: string }> => {
  const paths = kubeconfigPaths(path, options.env);
  const docs: { doc: unknown; base: string }[] = [];
  for (const p of paths) {
    let text: string;
    try {
      text = await readFile(p, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !path && paths.length > 1) continue;
      throw new Error(`kubeconfig: cannot read ${p}: ${(e as Error).message}`);
    }
    docs.push({ doc: parseYaml(text), base: dirname(resolve(p)) });
  }
  return restConfigFromKubeconfig(mergeKubeconfigs(docs), options.context);
};

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** rest.InClusterConfig: KUBERNETES_SERVICE_HOST/PORT and the mounted service-account token, CA and namespace. */
export const inClusterConfig = (env: NodeJS.ProcessEnv = process.env, dir = SERVICE_ACCOUNT_DIR): RestConfig & { namespace: string } => {
  const host = env.KUBERNETES_SERVICE_HOST;
  const port = env.KUBERNETES_SERVICE_PORT;
  if (!host || !port) throw new Error('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  const h = host.includes(':') ? `[${host}]` : host;
  let namespace = 'default';
  try { namespace = readFileSync(join(dir, 'namespace'), 'utf8').trim() || 'default'; } catch { /* default */ }
  return { host: `https://${h}:${port}`, caData: readFileSync(join(dir, 'ca.crt'), 'utf8'), bearerTokenFile: join(dir, 'token'), namespace };
};
