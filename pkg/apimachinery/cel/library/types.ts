// The Kubernetes CEL libraries' own types (upstream: kubernetes.URL, net.IP, net.CIDR, kubernetes.Quantity,
// kubernetes.NamedFormat, optional_type, kubernetes.authorization's Authorizer, PathCheck, GroupCheck, ResourceCheck
// and Decision). @bufbuild/cel only carries opaque values as protobuf messages, so each type is a one-field message
// declared here at start-up: values compare by their canonical text.
import { CelScalar, objectType, type CelObjectType } from '@bufbuild/cel';
import { create, createFileRegistry, type DescMessage, type FileRegistry, type Registry } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';

const STRING_FIELD = [{ name: 'value', number: 1, type: 9 /* TYPE_STRING */, label: 1 /* LABEL_OPTIONAL */, jsonName: 'value' }];
const BOOL_FIELD = [{ name: 'present', number: 1, type: 8 /* TYPE_BOOL */, label: 1, jsonName: 'present' }];

function file(name: string, pkg: string, messages: Array<{ name: string; field: typeof STRING_FIELD }>): FileRegistry {
  return createFileRegistry(create(FileDescriptorProtoSchema, { name, package: pkg, syntax: 'proto3', messageType: messages }), () => undefined);
}

// The authorizer's request resource is a field (authorizer.requestResource), the rest of its state JSON text.
const REQUEST_RESOURCE_FIELD = [...STRING_FIELD, { name: 'requestResource', number: 2, type: 11 /* TYPE_MESSAGE */, label: 1, jsonName: 'requestResource', typeName: '.kubernetes.authorization.ResourceCheck' }];

export const registry: Registry = createFileRegistry(
  file('kubernetes/cel/kubernetes.proto', 'kubernetes', [{ name: 'URL', field: STRING_FIELD }, { name: 'Quantity', field: STRING_FIELD }, { name: 'NamedFormat', field: STRING_FIELD }]),
  file('kubernetes/cel/net.proto', 'net', [{ name: 'IP', field: STRING_FIELD }, { name: 'CIDR', field: STRING_FIELD }]),
  file('kubernetes/cel/optional.proto', 'optional', [{ name: 'optional_type', field: BOOL_FIELD }]),
  file('kubernetes/cel/authorization.proto', 'kubernetes.authorization', [
    { name: 'Authorizer', field: REQUEST_RESOURCE_FIELD as typeof STRING_FIELD }, { name: 'PathCheck', field: STRING_FIELD },
    { name: 'GroupCheck', field: STRING_FIELD }, { name: 'ResourceCheck', field: STRING_FIELD }, { name: 'Decision', field: STRING_FIELD },
  ]),
);

const desc = (name: string): DescMessage => registry.getMessage(name)!;

/** An opaque type: its CEL type, a constructor from canonical text and the text back. */
export interface Opaque {
  desc: DescMessage;
  type: CelObjectType;
  of(text: string): ReturnType<typeof create>;
  text(v: ReflectMessage): string;
}

function opaque(name: string): Opaque {
  const d = desc(name);
  const field = d.fields[0]!;
  return {
    desc: d,
    type: objectType(d),
    of: (text) => create(d, { value: text } as never),
    text: (v) => v.get(field) as string,
  };
}

export const AUTHORIZER_TYPE = opaque('kubernetes.authorization.Authorizer');
export const PATH_CHECK_TYPE = opaque('kubernetes.authorization.PathCheck');
export const GROUP_CHECK_TYPE = opaque('kubernetes.authorization.GroupCheck');
export const RESOURCE_CHECK_TYPE = opaque('kubernetes.authorization.ResourceCheck');
export const DECISION_TYPE = opaque('kubernetes.authorization.Decision');
export const URL_TYPE = opaque('kubernetes.URL');
export const QUANTITY_TYPE = opaque('kubernetes.Quantity');
export const FORMAT_TYPE = opaque('kubernetes.NamedFormat');
export const IP_TYPE = opaque('net.IP');
export const CIDR_TYPE = opaque('net.CIDR');

// An optional's value can be any CEL value, which a message field cannot hold: the message marks presence and
// the value rides along by identity.
const OPTIONAL = desc('optional.optional_type');
const presentField = OPTIONAL.fields[0]!;
const optionalValues = new WeakMap<object, unknown>();
export const OPTIONAL_TYPE = objectType(OPTIONAL);

export function optionalOf(value: unknown): ReturnType<typeof create> {
  const m = create(OPTIONAL, { present: true } as never);
  optionalValues.set(m, value);
  return m;
}
export const optionalNone = (): ReturnType<typeof create> => create(OPTIONAL, { present: false } as never);
export const optionalPresent = (v: ReflectMessage): boolean => v.get(presentField) as boolean;
export const optionalValue = (v: ReflectMessage): unknown => optionalValues.get(v.message);

export const { STRING, INT, BOOL, DOUBLE, DYN } = CelScalar;
