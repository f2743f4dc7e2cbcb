import { describe, expect, it } from 'vitest';
import { findResource } from '../../api/index.js';
import { builtinProtoSchemas, decodeMessage, decodeProtobufObject, readEnvelope } from '../apimachinery/protobuf/index.js';
import { ProtoReader } from '../apimachinery/protobuf/wire.js';
import { negotiateOutput } from './negotiation.js';
import { keyValueOf } from '../storage/keyvalue.js';
import { protobufObject, protobufStoredListParts, protobufPartialObjectMetadataList, protobufWatchFrame, speaksProtobuf } from './protobuf-response.js';

const PB = 'application/vnd.kubernetes.protobuf';
const configMaps = findResource('', 'v1', 'configmaps')!;

/** Field number -> raw values of one message (varints as numbers, length-delimited as Buffers). */
function fields(b: Uint8Array): Map<number, Array<number | Buffer>> {
  const r = new ProtoReader(b);
  const out = new Map<number, Array<number | Buffer>>();
  while (!r.done) {
    const { field, wire } = r.key();
    const v = wire === 0 ? r.varint() : Buffer.from(r.bytes());
    out.set(field, [...(out.get(field) ?? []), v]);
  }
  return out;
}

describe('protobuf responses: the bytes', () => {
  it('wraps an object in the k8s\\0 envelope exactly as upstream lays it out', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, data: { a: 'b' } };
    // Checked by hand against upstream's generated.proto files:
    //   magic "k8s\0" = 6b 38 73 00
    //   runtime.Unknown: typeMeta=1 (runtime.TypeMeta: apiVersion=1, kind=2), raw=2, contentEncoding=3, contentType=4
    //   core/v1 ConfigMap: metadata=1, data=2 (map entries: key=1, value=2); meta/v1 ObjectMeta: name=1, namespace=3
    const golden = [
      '6b387300',
      '0a0f', '0a027631', '1209' + Buffer.from('ConfigMap').toString('hex'), // typeMeta {apiVersion "v1", kind "ConfigMap"}
      '1210', '0a06' + '0a0163' + '1a016e', '1206' + '0a0161' + '120162', // raw: ConfigMap {metadata {name "c", namespace "n"}, data {"a": "b"}}
      '1a00', '2200', // contentEncoding "", contentType ""
    ].join('');
    expect(protobufObject(cm).toString('hex')).toBe(golden);
    expect(decodeProtobufObject(protobufObject(cm))).toEqual(cm);
  });

  it('writes a list as XxxList {metadata=1 (ListMeta), items=2}', () => {
    const items = ['a', 'b'].map((name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'n', resourceVersion: '7' }, data: { k: name } }));
    const kvs = items.map((o, i) => keyValueOf(`/configmaps/n/${o.metadata.name}`, Buffer.from(JSON.stringify(o)), 7, 7 + i));
    const body = Buffer.concat(protobufStoredListParts(configMaps, kvs, { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 }));
    // The items' framed messages are kept beside their KeyValues: a second list shares them.
    const again = protobufStoredListParts(configMaps, kvs, { resourceVersion: '9' });
    expect(again[2]).toBe(protobufStoredListParts(configMaps, kvs, { resourceVersion: '9' })[2]);
    const env = readEnvelope(body);
    expect([env.apiVersion, env.kind]).toEqual(['v1', 'ConfigMapList']);
    // Items carry no TypeMeta in protobuf (it is not part of their message), as upstream's lists.
    const bare = items.map(({ apiVersion: _v, kind: _k, ...rest }) => rest);
    expect(decodeProtobufObject(body)).toEqual({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '9', continue: 'tok', remainingItemCount: 3 }, items: bare });
  });

  it('numbers PartialObjectMetadataList fields as meta/v1 (metadata=1, items=2) and v1beta1 (items=1, metadata=2) do', () => {
    const items = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { x: 'y' } }, data: { big: 'not sent' } }];
    for (const [version, listMetaField, itemsField] of [['v1', 1, 2], ['v1beta1', 2, 1]] as const) {
      const env = readEnvelope(protobufPartialObjectMetadataList(items, { resourceVersion: '5' }, version));
      expect([env.apiVersion, env.kind]).toEqual([`meta.k8s.io/${version}`, 'PartialObjectMetadataList']);
      const f = fields(env.raw);
      expect(decodeMessage(f.get(listMetaField)![0] as Buffer, 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', builtinProtoSchemas)).toEqual({ resourceVersion: '5' });
      // PartialObjectMetadata {metadata=1}
      const pom = fields(f.get(itemsField)![0] as Buffer);
      expect(decodeMessage(pom.get(1)![0] as Buffer, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', builtinProtoSchemas)).toEqual({ name: 'a', labels: { x: 'y' } });
    }
  });

  it('frames a watch event as a 4-byte length and a bare WatchEvent {type=1, object=2 {raw=1}}', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
    const frame = protobufWatchFrame('ADDED', protobufObject(cm));
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    const event = fields(frame.subarray(4));
    expect((event.get(1)![0] as Buffer).toString()).toBe('ADDED');
    const raw = fields(event.get(2)![0] as Buffer).get(1)![0] as Buffer;
    expect(decodeProtobufObject(raw)).toEqual(cm);
  });
});

describe('protobuf responses: negotiation', () => {
  const pick = (accept: string, protobuf = true, listing = false): string => {
    const f = negotiateOutput(accept, listing, protobuf);
    return [f.encoding, f.as].filter(Boolean).join(' as ');
  };

  it('serves protobuf to client-go and controller-runtime, JSON to the rest', () => {
    expect(pick(`${PB}, application/json`)).toBe('protobuf');
    expect(pick(PB)).toBe('protobuf');
    expect(pick(`${PB};stream=watch`)).toBe('protobuf');
    expect(pick('application/json')).toBe('json');
    expect(pick('*/*')).toBe('json');
    expect(pick('application/*')).toBe('json');
    expect(negotiateOutput(undefined, false, true)).toEqual({ encoding: 'json' });
  });

  it('weighs q-values, and a q of 0 refuses a type', () => {
    expect(pick(`application/json;q=0.5, ${PB}`)).toBe('protobuf');
    expect(pick(`${PB};q=0.5, application/json`)).toBe('json');
    expect(pick(`${PB};q=0, */*`)).toBe('json');
    expect(pick(`application/json;q=0.9, ${PB};q=0.8, application/yaml`)).toBe('yaml');
  });

  it('falls back to JSON for kinds without protobuf, and refuses protobuf alone (406)', () => {
    expect(pick(`${PB}, application/json`, false)).toBe('json');
    expect(() => negotiateOutput(PB, false, false)).toThrow(/only the following media types are accepted: application\/json, application\/yaml$/);
    expect(() => negotiateOutput('text/html', false, true)).toThrow(/application\/json, application\/yaml, application\/vnd.kubernetes.protobuf$/);
  });

  it('serves PartialObjectMetadata in protobuf but Table only in JSON or YAML', () => {
    const pom = 'as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
    // client-go's metadata client
    expect(pick(`${PB};${pom},application/json;${pom},application/json`, true, true)).toBe('protobuf as PartialObjectMetadataList');
    expect(pick(`${PB};${pom},application/json;${pom},application/json`, false, true)).toBe('json as PartialObjectMetadataList');
    expect(pick(`${PB};as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1`)).toBe('json as Table');
    expect(() => negotiateOutput(`${PB};as=Table;g=meta.k8s.io;v=v1`, false, true)).toThrow(/only the following media types/);
  });

  it('knows which endpoints speak protobuf', () => {
    expect(speaksProtobuf(configMaps)).toBe(true);
    expect(speaksProtobuf(findResource('apps', 'v1', 'deployments')!)).toBe(true);
    expect(speaksProtobuf({ ...configMaps, definition: 'com.example.v1.Widget' })).toBe(false);
  });
});
