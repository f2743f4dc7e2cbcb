// Against the real built-in table, once api/index.ts exports it (it is written alongside this code).
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { GroupVersion } from '../../../api/types.js';
import { registerDiscovery } from '../discovery/routes.js';
import { collectRefs, definitionPool, reachableDefinitions } from './definitions.js';
import { buildOpenApiV3Documents } from './documents.js';

const loadBuiltin = async (): Promise<GroupVersion[] | undefined> => {
  try {
    const mod = (await import('../../../api/index.js')) as { builtinGroupVersions?: GroupVersion[] };
    return mod.builtinGroupVersions;
  } catch {
    return undefined;
  }
};

const builtin = await loadBuiltin();

describe.runIf(builtin !== undefined)('built-in group-versions', () => {
  const gvs = builtin!;

  it('every $ref of every document resolves, and every resource has its definition', () => {
    const pool = definitionPool(gvs);
    for (const gv of gvs) for (const r of gv.resources) expect(pool.definitions, r.definition).toHaveProperty([r.definition]);
    for (const [key, doc] of buildOpenApiV3Documents(gvs)) {
      const { missing } = reachableDefinitions(collectRefs(doc.paths, new Set()), pool.definitions);
      expect(missing, key).toEqual([]);
    }
  });

  it('pods PATCH carries fieldValidation and strategic merge patch; deployments/scale answers Scale', async () => {
    const docs = buildOpenApiV3Documents(gvs);
    const pods = docs.get('api/v1')!.paths['/api/v1/namespaces/{namespace}/pods/{name}']!;
    expect(pods.patch!.parameters!.map((p) => p.name)).toContain('fieldValidation');
    expect(pods.patch!.requestBody!.content).toHaveProperty(['application/strategic-merge-patch+json']);
    const app = Fastify();
    registerDiscovery(app, () => gvs);
    await app.ready();
    const apps = (await app.inject({ url: '/apis/apps/v1' })).json();
    expect(apps.resources.find((r: { name: string }) => r.name === 'deployments/scale'))
      .toMatchObject({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });
});
