import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { fixture } from '../discovery/fixture.js';
import { buildSwagger, toV2Schema } from './v2.js';
import { encodeSwaggerProtobuf } from './v2-protobuf.js';
import { negotiateV2, registerOpenApiV2 } from './v2-routes.js';

/** Reads one protobuf message into field -> raw values (varints as numbers, length-delimited as Buffers). */
const decode = (buf: Buffer): Map<number, (number | Buffer)[]> => {
  const fields = new Map<number, (number | Buffer)[]>();
  let i = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = buf[i++]!;
      result += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (!(b & 0x80)) return result;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    let value: number | Buffer;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const len = varint();
      value = buf.subarray(i, i + len);
      i += len;
    } else if (wire === 1) {
      value = buf.readDoubleLE(i);
      i += 8;
    } else throw new Error(`unexpected wire type ${wire}`);
    fields.set(field, [...(fields.get(field) ?? []), value]);
  }
  return fields;
};
const str = (v: number | Buffer | undefined) => (v as Buffer).toString('utf8');
const sub = (v: number | Buffer | undefined) => decode(v as Buffer);

describe('swagger 2.0', () => {
  const swagger = buildSwagger(fixture());

  it('converts schemas to 2.0: definitions refs, described refs, int-or-string', () => {
    expect(toV2Schema({ allOf: [{ $ref: '#/components/schemas/a.B' }], description: 'd' }))
      .toEqual({ $ref: '#/definitions/a.B', description: 'd' });
    expect(toV2Schema({ oneOf: [{ type: 'integer' }, { type: 'string' }], format: 'int-or-string' }))
      .toEqual({ type: 'string', format: 'int-or-string' });
    expect(JSON.stringify(swagger)).not.toContain('#/components/schemas/');
  });

  it('puts bodies in body parameters and content types in consumes/produces', () => {
    const patch = swagger.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']!.patch!;
    expect(patch.consumes).toContain('application/strategic-merge-patch+json');
    expect(patch.parameters![0]).toMatchObject({ in: 'body', name: 'body', required: true,
      schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    expect(patch.parameters!.map((p) => p.name)).toContain('fieldValidation');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    expect(swagger.definitions['io.k8s.api.autoscaling.v1.Scale']).toBeDefined();
  });

  it('encodes the gnostic protobuf Document', () => {
    const doc = decode(encodeSwaggerProtobuf(swagger));
    expect(str(doc.get(1)?.[0])).toBe('2.0');
    const definitions = (sub(doc.get(9)?.[0]).get(1) ?? []).map(sub);
    const deployment = definitions.find((d) => str(d.get(1)?.[0]) === 'io.k8s.api.apps.v1.Deployment')!;
    const schema = sub(deployment.get(2)?.[0]);
    expect(str(sub(schema.get(22)?.[0]).get(1)?.[0])).toBe('object');
    const gvk = (schema.get(31) ?? []).map(sub).find((e) => str(e.get(1)?.[0]) === 'x-kubernetes-group-version-kind')!;
    expect(str(sub(gvk.get(2)?.[0]).get(2)?.[0])).toBe('- group: apps\n  kind: Deployment\n  version: v1\n');
    const props = (sub(schema.get(25)?.[0]).get(1) ?? []).map(sub).map((p) => str(p.get(1)?.[0]));
    expect(props).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    const paths = (sub(doc.get(8)?.[0]).get(2) ?? []).map(sub);
    expect(paths.map((p) => str(p.get(1)?.[0]))).toContain('/api/v1/namespaces/{namespace}/pods/{name}');
  });

  it('negotiates as kube-openapi: protobuf for client-go, JSON otherwise, 406 for neither', async () => {
    expect(negotiateV2('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).toBe('protobuf');
    expect(negotiateV2(undefined)).toBe('json');
    expect(negotiateV2('text/html')).toBeUndefined();
    const app = Fastify();
    registerOpenApiV2(app, fixture);
    const pb = await app.inject({ url: '/openapi/v2', headers: { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect(pb.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(pb.rawPayload.equals(encodeSwaggerProtobuf(swagger))).toBe(true);
    const json = await app.inject({ url: '/openapi/v2', headers: { accept: 'application/json' } });
    expect(json.json().swagger).toBe('2.0');
    expect((await app.inject({ url: '/openapi/v2', headers: { 'if-none-match': json.headers.etag as string } })).statusCode)
      .toBe(304);
    expect((await app.inject({ url: '/openapi/v2', headers: { accept: 'text/html' } })).statusCode).toBe(406);
  });
});
