import { describe, expect, it } from 'vitest';
import { allDefinitions } from '../index.js';
import { refName, type Schema } from '../schema.js';
import { protoFields } from './index.js';

const refOf = (s: Schema | undefined): string | undefined =>
  s ? refName(s) ?? (s.allOf?.[0] ? refName(s.allOf[0]) : undefined) : undefined;

describe('api/proto field tables', () => {
  it('name only properties our schemas define (inlined structs: properties of their parent)', () => {
    const missing: string[] = [];
    const inlineParents = new Map<string, string>();
    for (const [name, table] of Object.entries(protoFields)) {
      for (const f of Object.values(table)) if (typeof f === 'object') inlineParents.set(f.inline, name);
    }
    for (const [name, table] of Object.entries(protoFields)) {
      const schema = allDefinitions[name] ?? allDefinitions[inlineParents.get(name) ?? ''];
      if (!schema) continue; // not served (yet)
      for (const f of Object.values(table)) {
        if (typeof f === 'object') {
          if (!protoFields[f.inline]) missing.push(`${name} inline ${f.inline}`);
          continue;
        }
        const json = f.replace(/\*$/, '');
        if (!schema.properties?.[json]) missing.push(`${name}.${json}`);
      }
    }
    expect(missing).toEqual([]);
    const unserved = Object.keys(protoFields).filter((n) => !allDefinitions[n] && !inlineParents.has(n));
    expect(unserved.every((n) => /\.(authentication|authorization)\.v1\./.test(n))).toBe(true);
  });

  it('cover every built-in kind and every definition its fields reference', () => {
    const seen = new Set<string>();
    const uncovered = new Set<string>();
    const special = /\.(Time|MicroTime|Duration|FieldsV1|Quantity|IntOrString|RawExtension)$/;
    const visit = (name: string): void => {
      if (seen.has(name) || special.test(name)) return;
      seen.add(name);
      const schema = allDefinitions[name];
      if (!schema) return;
      if (!protoFields[name] && schema.properties) uncovered.add(name);
      for (const p of Object.values(schema.properties ?? {})) {
        for (const s of [p, p.items, typeof p.additionalProperties === 'object' ? p.additionalProperties : undefined]) {
          const ref = refOf(s);
          if (ref) visit(ref);
        }
      }
    };
    for (const [name, schema] of Object.entries(allDefinitions)) {
      if (name.startsWith('io.k8s.api.') && schema['x-kubernetes-group-version-kind']) visit(name);
    }
    visit('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions');
    expect([...uncovered]).toEqual([]);
    expect(seen.size).toBeGreaterThan(250);
  });

  it('keep upstream numbers for a few well-known fields', () => {
    expect(protoFields['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toMatchObject({ 1: 'name', 3: 'namespace', 11: 'labels', 12: 'annotations' });
    expect(protoFields['io.k8s.api.core.v1.Pod']).toEqual({ 1: 'metadata', 2: 'spec', 3: 'status' });
    expect(protoFields['io.k8s.api.apps.v1.DeploymentSpec']).toMatchObject({ 1: 'replicas*', 3: 'template' });
    expect(protoFields['io.k8s.api.core.v1.Volume']).toEqual({ 1: 'name*', 2: { inline: 'io.k8s.api.core.v1.VolumeSource' } });
  });
});
