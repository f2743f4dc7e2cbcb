// The Swagger 2.0 document in gnostic's protobuf form (openapi_v2.Document), which is the only form client-go's
// OpenAPISchema() reads: kubectl 1.27 and 1.28 fetch it before every create/apply/replace that validates, and
// fail the command when it cannot be parsed. Field numbers are those of gnostic-models' OpenAPIv2.proto.
// Extension values, defaults and enums travel as YAML text (gnostic's Any.yaml), as upstream encodes them.
import { stringifyYaml as toYaml } from '../../apimachinery/yaml.js';
import type { SwaggerDocument, V2Operation, V2Parameter, V2PathItem, V2Schema } from './v2.js';

/** A protobuf message under construction. */
class Message {
  private readonly parts: Buffer[] = [];

  private varint(n: number | bigint): void {
    let v = BigInt(n);
    if (v < 0n) v += 1n << 64n; // two's complement, as int64 travels
    const bytes: number[] = [];
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      bytes.push(b);
    } while (v > 0n);
    this.parts.push(Buffer.from(bytes));
  }

  private key(field: number, wire: 0 | 1 | 2): void {
    this.varint((field << 3) | wire);
  }

  string(field: number, s: string | undefined): this {
    if (s) this.bytes(field, Buffer.from(s, 'utf8'));
    return this;
  }

  strings(field: number, xs: readonly string[] | undefined): this {
    for (const s of xs ?? []) this.bytes(field, Buffer.from(s, 'utf8'));
    return this;
  }

  /** Proto3 leaves false out, except inside a oneof, where `always` writes it so the choice is kept. */
  bool(field: number, b: boolean | undefined, always = false): this {
    if (b || (always && b === false)) {
      this.key(field, 0);
      this.varint(b ? 1 : 0);
    }
    return this;
  }

  int64(field: number, n: number | undefined): this {
    if (n) {
      this.key(field, 0);
      this.varint(Math.trunc(n));
    }
    return this;
  }

  double(field: number, n: number | undefined): this {
    if (n !== undefined && n !== 0) {
      this.key(field, 1);
      const b = Buffer.alloc(8);
      b.writeDoubleLE(n);
      this.parts.push(b);
    }
    return this;
  }

  message(field: number, m: Message | undefined): this {
    if (m) this.bytes(field, m.toBuffer());
    return this;
  }

  private bytes(field: number, b: Buffer): void {
    this.key(field, 2);
    this.varint(b.length);
    this.parts.push(b);
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const anyYaml = (value: unknown): Message => new Message().string(2, toYaml(value));

/** NamedAny entries for every "x-" key (vendor extensions), at the given field. */
const extensions = (m: Message, field: number, obj: object): Message => {
  for (const [k, v] of Object.entries(obj)) {
    if (k.startsWith('x-') && v !== undefined) m.message(field, new Message().string(1, k).message(2, anyYaml(v)));
  }
  return m;
};

const schema = (s: V2Schema): Message => {
  const m = new Message()
    .string(1, s.$ref as string | undefined)
    .string(2, s.format as string | undefined)
    .string(3, s.title as string | undefined)
    .string(4, s.description as string | undefined);
  if (s.default !== undefined) m.message(5, anyYaml(s.default));
  m.double(7, s.maximum as number | undefined).double(9, s.minimum as number | undefined)
    .int64(11, s.maxLength as number | undefined).int64(12, s.minLength as number | undefined)
    .string(13, s.pattern as string | undefined).bool(16, s.uniqueItems as boolean | undefined)
    .strings(19, s.required as string[] | undefined);
  for (const e of (s.enum as unknown[] | undefined) ?? []) m.message(20, anyYaml(e));
  const ap = s.additionalProperties;
  if (typeof ap === 'boolean') m.message(21, new Message().bool(2, ap, true));
  else if (ap && typeof ap === 'object') m.message(21, new Message().message(1, schema(ap as V2Schema)));
  if (typeof s.type === 'string') m.message(22, new Message().string(1, s.type));
  if (s.items && typeof s.items === 'object') m.message(23, new Message().message(1, schema(s.items as V2Schema)));
  for (const a of (s.allOf as V2Schema[] | undefined) ?? []) m.message(24, schema(a));
  if (s.properties) {
    const props = new Message();
    for (const [name, p] of Object.entries(s.properties as Record<string, V2Schema>)) {
      props.message(1, new Message().string(1, name).message(2, schema(p)));
    }
    m.message(25, props);
  }
  return extensions(m, 31, s);
};

const parameter = (p: V2Parameter): Message => {
  let inner: Message;
  if (p.in === 'body') {
    inner = new Message().message(1, new Message().string(1, p.description).string(2, p.name).string(3, p.in)
      .bool(4, p.required).message(5, p.schema && schema(p.schema)));
  } else if (p.in === 'path') {
    inner = new Message().message(2, new Message().message(4, new Message().bool(1, p.required).string(2, p.in)
      .string(3, p.description).string(4, p.name).string(5, p.type).bool(19, p.uniqueItems)));
  } else {
    inner = new Message().message(2, new Message().message(3, new Message().bool(1, p.required).string(2, p.in)
      .string(3, p.description).string(4, p.name).string(6, p.type).bool(20, p.uniqueItems)));
  }
  return new Message().message(1, inner);
};

const operation = (op: V2Operation): Message => {
  const m = new Message().strings(1, op.tags).string(3, op.description).string(5, op.operationId)
    .strings(6, op.produces).strings(7, op.consumes);
  for (const p of op.parameters ?? []) m.message(8, parameter(p));
  const responses = new Message();
  // Extension apiservers' operations are merged in as they wrote them: responses may be missing.
  for (const [code, r] of Object.entries(op.responses ?? {})) {
    const response = new Message().string(1, r.description)
      .message(2, r.schema && new Message().message(1, schema(r.schema)));
    responses.message(1, new Message().string(1, code).message(2, new Message().message(1, response)));
  }
  m.message(9, responses).strings(10, op.schemes);
  return extensions(m, 13, op);
};

const METHOD_FIELDS = { get: 2, put: 3, post: 4, delete: 5, patch: 8 } as const;

const pathItem = (item: V2PathItem): Message => {
  const m = new Message();
  for (const [method, field] of Object.entries(METHOD_FIELDS)) {
    const op = item[method as keyof typeof METHOD_FIELDS];
    if (op) m.message(field, operation(op));
  }
  for (const p of item.parameters ?? []) m.message(9, parameter(p));
  return m;
};

export const encodeSwaggerProtobuf = (doc: SwaggerDocument): Buffer => {
  const paths = new Message();
  for (const [p, item] of Object.entries(doc.paths)) paths.message(2, new Message().string(1, p).message(2, pathItem(item)));
  const definitions = new Message();
  for (const [name, s] of Object.entries(doc.definitions)) {
    definitions.message(1, new Message().string(1, name).message(2, schema(s)));
  }
  const security = new Message();
  for (const requirement of doc.security) {
    for (const [name, scopes] of Object.entries(requirement)) {
      security.message(1, new Message().string(1, name).message(2, new Message().strings(1, scopes)));
    }
  }
  const securityDefinitions = new Message();
  for (const [name, d] of Object.entries(doc.securityDefinitions as Record<string, Record<string, string>>)) {
    const apiKey = new Message().string(1, d.type).string(2, d.name).string(3, d.in).string(4, d.description);
    securityDefinitions.message(1, new Message().string(1, name).message(2, new Message().message(2, apiKey)));
  }
  return new Message()
    .string(1, doc.swagger)
    .message(2, new Message().string(1, doc.info.title).string(2, doc.info.version))
    .message(8, paths)
    .message(9, definitions)
    .message(12, security)
    .message(13, securityDefinitions)
    .toBuffer();
};
