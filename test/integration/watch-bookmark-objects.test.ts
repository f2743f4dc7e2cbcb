// What a watch's BOOKMARK event carries, as upstream's cacher makes it: a zero-valued object of the kind (newFunc())
// with only its resourceVersion set (and the initial-events-end annotation), written as Go writes that zero object in
// the version watched: `{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12","creationTimestamp":null},
// "spec":{"containers":null},"status":{}}`. A custom resource's is an unstructured object: apiVersion, kind and the
// resourceVersion alone, its keys sorted as Go writes a map.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { openWatch } from '../support/watch-stream.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', controllers: [] });
  const crd = await s.api('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gizmos.bm.example.com' },
    spec: {
      group: 'bm.example.com', scope: 'Namespaced', names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  });
  expect(crd.status).toBe(201);
  const deadline = Date.now() + 10_000;
  while ((await s.api('GET', '/apis/bm.example.com/v1/gizmos')).status !== 200) {
    if (Date.now() > deadline) throw new Error('gizmos not served in time');
    await new Promise((r) => setTimeout(r, 20));
  }
});
afterAll(async () => { await s?.close(); });

const END = '"k8s.io/initial-events-end":"true"';

/** The text of the initial-events-end bookmark of a watch-list of `path`, with its resourceVersion. */
async function endBookmark(path: string, accept?: string): Promise<{ text: string; rv: string }> {
  const stream = await openWatch(`${s.url}${path}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    s.agent, accept ? { accept } : {});
  try {
    const events = await stream.until((evs) => evs.some((e) => e.type === 'BOOKMARK'), 10_000, 'the bookmark');
    const bookmark = events.find((e) => e.type === 'BOOKMARK')!;
    // the line as sent: compact JSON, its key order kept by JSON.parse
    return { text: JSON.stringify(bookmark.object), rv: bookmark.object.metadata.resourceVersion };
  } finally {
    stream.close();
  }
}

describe('BOOKMARK objects', () => {
  it('are the zero object of a built-in kind, as Go writes it in the version watched', async () => {
    const meta = (rv: string, annotations = END): string => `"metadata":{"resourceVersion":"${rv}","creationTimestamp":null,"annotations":{${annotations}}}`;
    const pod = await endBookmark('/api/v1/namespaces/default/pods');
    expect(pod.text).toBe(`{"kind":"Pod","apiVersion":"v1",${meta(pod.rv)},"spec":{"containers":null},"status":{}}`);
    const cm = await endBookmark('/api/v1/configmaps');
    expect(cm.text).toBe(`{"kind":"ConfigMap","apiVersion":"v1",${meta(cm.rv)}}`);
    // the internal type's replicas is an int32, which the conversion to apps/v1 makes a pointer to 0
    const deploy = await endBookmark('/apis/apps/v1/deployments');
    expect(deploy.text).toBe(`{"kind":"Deployment","apiVersion":"apps/v1",${meta(deploy.rv)},"spec":{"replicas":0,"selector":null,`
      + '"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"strategy":{}},"status":{}}');
    // and a DaemonSet's conversion writes its template generation as an annotation
    const ds = await endBookmark('/apis/apps/v1/daemonsets');
    expect(ds.text).toBe(`{"kind":"DaemonSet","apiVersion":"apps/v1",${meta(ds.rv, `"deprecated.daemonset.template.generation":"0",${END}`)},`
      + '"spec":{"selector":null,"template":{"metadata":{"creationTimestamp":null},"spec":{"containers":null}},"updateStrategy":{}},'
      + '"status":{"currentNumberScheduled":0,"numberMisscheduled":0,"desiredNumberScheduled":0,"numberReady":0}}');
    const event = await endBookmark('/apis/events.k8s.io/v1/events');
    expect(event.text).toBe(`{"kind":"Event","apiVersion":"events.k8s.io/v1",${meta(event.rv)},"eventTime":null,"regarding":{},"deprecatedSource":{},`
      + '"deprecatedFirstTimestamp":null,"deprecatedLastTimestamp":null}');
    const crd = await endBookmark('/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    expect(crd.text).toBe(`{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1",${meta(crd.rv)},`
      + '"spec":{"group":"","names":{"plural":"","kind":""},"scope":"","versions":null},'
      + '"status":{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":null}}');
  });

  it('are apiVersion, kind and the resourceVersion alone for a custom resource', async () => {
    const gizmo = await endBookmark('/apis/bm.example.com/v1/namespaces/default/gizmos');
    expect(gizmo.text).toBe(`{"apiVersion":"bm.example.com/v1","kind":"Gizmo","metadata":{"annotations":{${END}},"resourceVersion":"${gizmo.rv}"}}`);
  });

  it('are PartialObjectMetadata for a metadata-only watch', async () => {
    const pom = await endBookmark('/api/v1/namespaces/default/pods', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1');
    expect(pom.text).toBe(`{"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"${pom.rv}","creationTimestamp":null,"annotations":{${END}}}}`);
  });
});

describe('BOOKMARK events of a Table watch', () => {
  const TABLE = 'application/json;as=Table;g=meta.k8s.io;v=v1';
  const rowOf = async (path: string): Promise<{ table: any; rv: string }> => {
    const stream = await openWatch(`${s.url}${path}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
      s.agent, { accept: TABLE });
    try {
      const events = await stream.until((evs) => evs.some((e) => e.type === 'BOOKMARK'), 10_000, 'the bookmark');
      const table = events.find((e) => e.type === 'BOOKMARK')!.object;
      return { table, rv: table.metadata.resourceVersion };
    } finally {
      stream.close();
    }
  };

  it('carry the zero object as a Table row, as upstream transforms every event of the watch', async () => {
    const { table, rv } = await rowOf('/api/v1/namespaces/bookmarks-empty/pods');
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates']);
    expect(table.rows).toEqual([{
      cells: ['', '0/0', '', '0', '<unknown>', '<none>', '<none>', '<none>', '<none>'],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: rv, creationTimestamp: null, annotations: { 'k8s.io/initial-events-end': 'true' } } },
    }]);
    const gizmos = await rowOf('/apis/bm.example.com/v1/namespaces/bookmarks-empty/gizmos');
    expect(gizmos.table.rows).toHaveLength(1);
    // the Age column's JSONPath finds no creationTimestamp in the unstructured bookmark: a null cell
    expect(gizmos.table.rows[0].cells).toEqual(['', null]);
    expect(gizmos.table.rows[0].object.metadata).toEqual({ resourceVersion: gizmos.rv, annotations: { 'k8s.io/initial-events-end': 'true' } });
  });
});
