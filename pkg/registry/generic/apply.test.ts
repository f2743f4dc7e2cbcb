// Server-side apply's checks in upstream's words and order: the applied configuration's type, then its typing
// (structured-merge-diff), then the object it made: uid, namespace, name.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import type { StatusError } from '../../apimachinery/errors.js';
import { create } from './create.js';
import { patchBuilder } from './patch.js';
import type { Registry } from './registry.js';
import { testContext, withRegistries } from './testing.js';
import { update } from './update.js';

const ctx = testContext({ fieldValidation: 'Strict', bodyFormat: 'apply' });
const apply = async (reg: Registry, name: string, body: unknown) => update(reg, ctx, patchBuilder(reg, ctx, name, 'apply', body, false));
/** The error an apply fails with, as [code, reason, message]. */
const failure = async (reg: Registry, name: string, body: unknown): Promise<[number, string, string]> => {
  const err = await apply(reg, name, body).then(() => undefined, (e: unknown) => e as StatusError);
  if (!err) throw new Error('the apply succeeded');
  return [err.code, err.reason, err.message];
};
const configMap = (metadata: KubeObject['metadata'], data = { a: 'b' }): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data });

describe('server-side apply', () => {
  it('refuses a configuration of another kind or version as upstream\'s versionCheckManager words it', async () => {
    await withRegistries(async (regs) => {
      const cms = regs.get('', 'v1', 'configmaps')!;
      const invalid = (type: string): [number, string, string] => [400, 'BadRequest', `invalid object type: ${type}`];
      expect(await failure(cms, 'a', { ...configMap({ name: 'a' }), kind: 'Secret' })).toEqual(invalid('/v1, Kind=Secret'));
      expect(await failure(cms, 'a', { ...configMap({ name: 'a' }), apiVersion: 'apps/v1' })).toEqual(invalid('apps/v1, Kind=ConfigMap'));
      expect(await failure(cms, 'a', { kind: 'ConfigMap', metadata: { name: 'a' } })).toEqual(invalid('/, Kind=ConfigMap'));
      expect(await failure(cms, 'a', { apiVersion: 'v1', metadata: { name: 'a' } })).toEqual(invalid('/v1, Kind='));
      // a body that is not a map fails sigs.k8s.io/yaml's Unmarshal first; null is an empty configuration
      const notAMap = (type: string): [number, string, string] => [400, 'BadRequest',
        `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${type} into Go value of type map[string]interface {}`];
      expect(await failure(cms, 'a', 'apiVersion: v1')).toEqual(notAMap('string'));
      expect(await failure(cms, 'a', [configMap({ name: 'a' })])).toEqual(notAMap('array'));
      expect(await failure(cms, 'a', true)).toEqual(notAMap('bool'));
      expect(await failure(cms, 'a', null)).toEqual(invalid('/, Kind='));
      expect(await failure(cms, 'a', { ...configMap({ name: 'a' }), apiVersion: 'a/b/c' })).toEqual(invalid('/, Kind='));
    });
  });

  it('creates nothing from a configuration naming a uid or no name', async () => {
    await withRegistries(async (regs) => {
      const cms = regs.get('', 'v1', 'configmaps')!;
      expect(await failure(cms, 'a', configMap({ name: 'a', uid: '6a1b0f3e-0000-4000-8000-000000000001' }))).toEqual([409, 'Conflict',
        'Operation cannot be fulfilled on configmaps "a": uid mismatch: the provided object specified uid 6a1b0f3e-0000-4000-8000-000000000001, and no existing object was found']);
      expect(await failure(cms, 'b', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } })).toEqual([400, 'BadRequest',
        'the name of the object (b based on URL) was undeterminable: name must be provided']);
      expect(await failure(cms, 'c', configMap({ name: 'd' }))).toEqual([400, 'BadRequest', 'the name of the object (d) does not match the name on the URL (c)']);
      expect(await regs.store.get('/registry/configmaps/default/a').catch(() => undefined)).toBeUndefined();
      // an existing object's name stands for one the configuration leaves out
      await apply(cms, 'e', configMap({ name: 'e' }));
      expect((await apply(cms, 'e', { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'c' } })).object.data).toEqual({ a: 'c' });
    });
  });

  it('creates an object its configuration gives a resourceVersion, as upstream\'s Store.Update; a POST still refuses one', async () => {
    await withRegistries(async (regs) => {
      const cms = regs.get('', 'v1', 'configmaps')!;
      const made = await apply(cms, 'rv', configMap({ name: 'rv', resourceVersion: '987654' }));
      expect(made.created).toBe(true);
      expect(made.object.metadata?.resourceVersion).not.toBe('987654');
      // on an existing object it is a precondition (of an apply that changes something)
      expect((await failure(cms, 'rv', configMap({ name: 'rv', resourceVersion: '987654' }, { a: 'c' })))[0]).toBe(409);
      const posted = await create(cms, ctx, configMap({ name: 'posted', resourceVersion: '987654' })).then(() => undefined, (e: unknown) => e as StatusError);
      expect([posted?.code, posted?.message]).toEqual([400, 'resourceVersion should not be set on objects to be created']);
    });
  });

  it('refuses another namespace than the URL\'s, also in an apply that changes nothing', async () => {
    await withRegistries(async (regs) => {
      const cms = regs.get('', 'v1', 'configmaps')!;
      const mismatch = [400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request'];
      expect(await failure(cms, 'a', configMap({ name: 'a', namespace: 'other' }))).toEqual(mismatch);
      await apply(cms, 'a', configMap({ name: 'a' }));
      expect(await failure(cms, 'a', configMap({ name: 'a', namespace: 'other' }))).toEqual(mismatch);
      expect((await apply(cms, 'a', configMap({ name: 'a', namespace: 'default' }))).object.metadata?.namespace).toBe('default');
    });
  });

  it('answers values of the wrong type in structured-merge-diff\'s words, with the 400 of the fix under way upstream', async () => {
    await withRegistries(async (regs) => {
      const deployments = regs.get('apps', 'v1', 'deployments')!;
      const deployment = (container: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'envnum', namespace: 'default' },
        spec: { selector: { matchLabels: { app: 'x' } }, template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'busybox', ...container }] } }, ...spec },
      });
      const what = 'failed to create typed patch object (default/envnum; apps/v1, Kind=Deployment)';
      expect(await failure(deployments, 'envnum', deployment({ env: [{ name: 'PORT', value: 8080 }] }))).toEqual([400, 'BadRequest',
        `${what}: .spec.template.spec.containers[name="c"].env[name="PORT"].value: expected string, got &value.valueUnstructured{Value:8080}`]);
      const many = deployment({ ports: 80, env: [{ name: 'A', value: { x: [1e6, 'y', null] } }] }, { replicas: '2', paused: 'yes', minReadySeconds: null });
      expect(await failure(deployments, 'envnum', many)).toEqual([400, 'BadRequest', [
        `${what}: errors:`,
        '  .spec.template.spec.containers[name="c"].ports: expected list, got &{80}',
        '  .spec.template.spec.containers[name="c"].env[name="A"].value: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"x":[]interface {}{1e+06, "y", interface {}(nil)}}}',
        '  .spec.replicas: expected numeric (int or float), got string',
        '  .spec.paused: expected boolean, got &{yes}',
      ].join('\n')]);
      // a name that is not a string reads as empty where the message names the object, as an unstructured accessor's
      expect(await failure(deployments, 'envnum', { ...deployment({}), metadata: { name: { x: 1 }, namespace: 'default' } })).toEqual([400, 'BadRequest',
        'failed to create typed patch object (default/; apps/v1, Kind=Deployment): .metadata.name: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"x":1}}']);
      // quantities take a number or a string; undeclared fields are a 400 as well
      const limits = deployment({ resources: { limits: { cpu: 1, memory: '1Gi' } } });
      expect((await apply(deployments, 'envnum', limits)).object.spec?.template.spec.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '1Gi' } });
      expect(await failure(deployments, 'envnum', deployment({ bogus: 1 }))).toEqual([400, 'BadRequest', `${what}: .spec.template.spec.containers[name="c"].bogus: field not declared in schema`]);
    });
  });
});
