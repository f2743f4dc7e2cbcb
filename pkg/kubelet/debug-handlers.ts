// Two of the node server's debugging handlers, as upstream's kubelet serves them (enableDebuggingHandlers):
// /runningpods/, the pods the runtime runs as it knows them (not as the API does), and /logs/, the node's
// /var/log as Go's http.FileServer shows a directory (an HTML list) or a file.
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import type { Runtime } from './runtime/types.js';

/** upstream's GetRunningPods as a PodList: each pod with a ready sandbox or a running container, name and image per container. */
export function runningPods(runtimes: Runtime[]): unknown {
  const items = runtimes.flatMap((rt) => {
    const running = rt.listContainers().filter((c) => c.state === 'running');
    return rt.listPodSandboxes().filter((sb) => sb.state === 'ready' || running.some((c) => c.sandboxId === sb.id)).map((sb) => ({
      metadata: { name: sb.config.name, namespace: sb.config.namespace, uid: sb.config.uid, creationTimestamp: null },
      spec: { containers: running.filter((c) => c.sandboxId === sb.id).map((c) => ({ name: c.name, image: c.image, resources: {} })) },
      status: {},
    }));
  });
  return { kind: 'PodList', apiVersion: 'v1', metadata: {}, items };
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Serves `rel` (the path after /logs/) under `root` (/var/log): a directory as Go's listing, a file as it is. */
export async function serveLogPath(res: ServerResponse, root: string, rel: string): Promise<void> {
  const path = normalize(join(root, decodeURIComponent(rel)));
  const info = path === root || path.startsWith(`${root}/`) ? await stat(path).catch(() => undefined) : undefined;
  if (!info) { res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n'); return; }
  if (info.isDirectory()) {
    const entries = (await readdir(path, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const links = entries.map((e) => { const name = e.isDirectory() ? `${e.name}/` : e.name; return `<a href="${escapeHtml(encodeURIComponent(e.name))}${e.isDirectory() ? '/' : ''}">${escapeHtml(name)}</a>\n`; });
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n${links.join('')}</pre>\n`);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(info.size) });
  createReadStream(path).on('error', () => res.destroy()).pipe(res);
}
