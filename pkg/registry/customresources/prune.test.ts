import { describe, expect, it } from 'vitest';
import { definitions as metaDefinitions } from '../../../api/meta/v1/index.js';
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { SchemaIndex } from '../schema/index.js';
import { pruneCustomResource } from './prune.js';

const meta = new SchemaIndex(metaDefinitions);

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer' },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
      },
    },
  },
} as unknown as JSONSchemaProps;

describe('pruneCustomResource', () => {
  it('reports the unknown fields as upstream\'s coercer: the root metadata\'s, then the pruned ones sorted, then embedded metadata\'s sorted', () => {
    const obj = {
      zz: 1,
      metadata: { name: 'w', zMeta: 1, ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o', uid: 'u', x: 1 }], aMeta: 1 },
      spec: {
        zeta: 1, alpha: 1, replicas: 1,
        template: { metadata: { name: 't', zEmb: 1, aEmb: 1 }, spec: { kept: true }, other: 1 },
        items: [{ name: 'a', b: 1 }, { name: 'c', a: 1 }],
      },
      aa: 1,
    };
    expect(pruneCustomResource(meta, obj, schema)).toEqual([
      // encoding/json marshals the metadata map with its keys sorted before strict-decoding it into ObjectMeta
      'metadata.aMeta', 'metadata.ownerReferences[0].x', 'metadata.zMeta',
      'aa', 'spec.alpha', 'spec.items[0].b', 'spec.items[1].a', 'spec.template.other', 'spec.zeta', 'zz',
      'spec.template.metadata.aEmb', 'spec.template.metadata.zEmb',
    ]);
    expect(obj).toEqual({
      metadata: { name: 'w', ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'o', uid: 'u' }] },
      spec: { replicas: 1, template: { metadata: { name: 't' }, spec: { kept: true } }, items: [{ name: 'a' }, { name: 'c' }] },
    });
  });
});
