// The garbage collector's dependency graph in Graphviz DOT, as upstream's debug handler serves it at
// /debug/controllers/garbage-collector-controller/graph: one vertex per object that owns or is owned (with
// ?uid=...: only the objects connected to those), an edge from each dependent to each of its owners, and a vertex
// marked missing for an owner the collector has not seen. `dot -Tsvg` draws it.
import type { KubeObject, OwnerReference } from '../../../api/types.js';
import type { DebugHandler } from '../shared/types.js';
import { FOREGROUND, type Located } from './monitors.js';

export interface GraphSource {
  all(): Iterable<Located>;
  get(uid: string): Located | undefined;
  dependentsOf(uid: string): Located[];
}

interface Vertex {
  id: number;
  uid: string;
  group: string;
  version: string;
  kind: string;
  namespace: string;
  name: string;
  missing: boolean;
  beingDeleted: boolean;
  deletingDependents: boolean;
}

const owners = (o: KubeObject): OwnerReference[] => o.metadata?.ownerReferences ?? [];

/** The objects reachable from `uids` through owner references, either way. */
function connected(source: GraphSource, uids: string[]): Located[] {
  const seen = new Map<string, Located>();
  const queue = [...uids];
  for (let uid = queue.shift(); uid !== undefined; uid = queue.shift()) {
    const item = seen.has(uid) ? undefined : source.get(uid);
    if (!item) continue;
    seen.set(uid, item);
    for (const r of owners(item.obj)) queue.push(r.uid);
    for (const d of source.dependentsOf(uid)) queue.push(d.obj.metadata!.uid!);
  }
  return [...seen.values()];
}

const splitApiVersion = (apiVersion: string): { group: string; version: string } => {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
};

function render(vertices: Vertex[], edges: [number, number][]): string {
  if (vertices.length === 0) return 'strict digraph full {\n}\n';
  const q = (v: unknown): string => `"${String(v)}"`;
  const nodes = vertices.map((v) => {
    const kind = `${v.kind}.${v.version}${v.group ? `.${v.group}` : ''}`;
    const conditions = [v.beingDeleted && 'beingDeleted', v.deletingDependents && 'deletingDependents', v.missing && 'missingFromGraph'].filter(Boolean);
    const label = `uid=${v.uid}\nnamespace=${v.namespace}\n${kind}/${v.name}\n${conditions.length ? `${conditions.join(',')}\n` : ''}`;
    const attrs: [string, unknown][] = [
      ['label', label], ['group', v.group], ['version', v.version], ['kind', v.kind], ['namespace', v.namespace], ['name', v.name],
      ['uid', v.uid], ['missing', v.missing], ['beingDeleted', v.beingDeleted], ['deletingDependents', v.deletingDependents], ['virtual', false],
    ];
    return `  ${v.id} [\n${attrs.map(([k, x]) => `    ${k}=${q(x)}`).join('\n')}\n  ];`;
  });
  const lines = ['strict digraph full {', '  // Node definitions.', ...nodes];
  if (edges.length) lines.push('', '  // Edge definitions.', ...edges.map(([from, to]) => `  ${from} -> ${to};`));
  return `${lines.join('\n')}\n}\n`;
}

/** The graph (of everything, or of what is connected to `uids`) in DOT. */
export function dumpGraph(source: GraphSource, uids: string[] = []): string {
  const items = uids.length ? connected(source, uids) : [...source.all()];
  const vertices = new Map<string, Vertex>();
  let next = 0;
  // as upstream's: objects that neither own nor are owned are left out (an owner's dependents are among the items)
  const owning = new Set(items.flatMap((i) => owners(i.obj).map((r) => r.uid)));
  const inGraph = items.filter((i) => owners(i.obj).length > 0 || owning.has(i.obj.metadata!.uid!));
  for (const { obj, resource } of inGraph) {
    const m = obj.metadata!;
    vertices.set(m.uid!, {
      id: next++, uid: m.uid!, group: resource.group, version: resource.version, kind: resource.kind, namespace: m.namespace ?? '', name: m.name ?? '',
      missing: false, beingDeleted: !!m.deletionTimestamp, deletingDependents: !!m.deletionTimestamp && !!m.finalizers?.includes(FOREGROUND),
    });
  }
  const edges: [number, number][] = [];
  for (const { obj } of inGraph) {
    const from = vertices.get(obj.metadata!.uid!)!;
    for (const r of owners(obj)) {
      let to = vertices.get(r.uid);
      if (!to) {
        to = { id: next++, uid: r.uid, ...splitApiVersion(r.apiVersion), kind: r.kind, namespace: '', name: r.name, missing: true, beingDeleted: false, deletingDependents: false };
        vertices.set(r.uid, to);
      }
      edges.push([from.id, to.id]);
    }
  }
  return render([...vertices.values()], edges);
}

/** Upstream's debugHTTPHandler: /graph, with any number of ?uid= parameters. */
export const graphDebugHandler = (source: GraphSource): DebugHandler => (path, query) =>
  path === '/graph'
    ? { status: 200, contentType: 'text/vnd.graphviz', body: dumpGraph(source, query.getAll('uid')) }
    : { status: 404, contentType: 'text/plain; charset=utf-8', body: '\n' };
