// Turning a client's JSON into an object of the resource's kind, as upstream's decoder does:
// kind/apiVersion checked and filled in, JSON types checked, unknown fields dropped (reported per
// fieldValidation), then defaults applied, quantities and times put in Go's canonical form and Go's zero values
// written.
import { apiVersionOf, type KubeObject, type ResourceType } from '../../../api/types.js';
import { refTo } from '../../../api/schema.js';
import { badRequest, type StatusError } from '../../apimachinery/errors.js';
import { builtinGroupVersions } from '../../../api/index.js';
import { goQuote } from '../validation/go-values.js';
import { floatLiteralsOf, type FloatLiteral } from '../../apimachinery/float-literals.js';
import type { RequestContext } from '../context.js';
import { canonicalizeValues } from '../schema/canonical.js';
import { applyDefaults } from '../schema/defaults.js';
import type { SchemaIndex } from '../schema/index.js';
import { isPlainObject } from '../schema/index.js';
import { pruneUnknown } from '../schema/prune.js';
import { fillZeroValues } from '../schema/zero-values.js';
import { reportStrictErrors } from './strict-errors.js';
import type { TypeChecker } from '../schema/typecheck.js';

export interface Decoder {
  index: SchemaIndex;
  types: TypeChecker;
  /** A decoder of its own (custom resources: structural pruning and defaulting); replaces the steps below. */
  decode?(body: KubeObject, target: Target, ctx: RequestContext): KubeObject;
}

/** The gvk a body must carry to be stored as `rt` (or, for subresources, as their kind). */
export interface Target {
  group: string;
  version: string;
  kind: string;
  definition: string;
}

export const targetOf = (rt: ResourceType): Target => ({ group: rt.group, version: rt.version, kind: rt.kind, definition: rt.definition });

/**
 * `floats`: the numbers the JSON of `body` wrote with a fraction or an exponent, which an integer field of a built-in
 * kind refuses (a custom resource's schema takes an integral one, as upstream's); a copy of the body, or what a patch
 * made of it, is given those of what it came from.
 */
export function decodeObject(d: Decoder, body: unknown, target: Target, ctx: RequestContext, floats = floatLiteralsOf(body)): KubeObject {
  if (!isPlainObject(body)) throw badRequest(`Object '${target.kind}' is invalid: the body must be a JSON object`);
  const sent = body as KubeObject;
  // Go decodes `managedFields: []` to an empty list, not nil: the field manager reads it as a reset (upstream's
  // isResetManagedFields) and writes managedFields itself, so omitempty's dropping of it waits for the field manager
  const reset = Array.isArray(sent.metadata?.managedFields) && sent.metadata.managedFields.length === 0;
  const obj = d.decode ? d.decode(sent, target, ctx) : decodeBuiltIn(d, sent, target, ctx, floats);
  if (reset && obj.metadata && obj.metadata.managedFields === undefined) obj.metadata = { ...obj.metadata, managedFields: [] };
  return obj;
}

/** The built-in kinds by `group/version/kind`, lists too: what upstream's scheme decodes, of the versions served. */
const REGISTERED = new Set(builtinGroupVersions.flatMap((gv) => gv.resources.flatMap((r) => [`${r.group}/${r.version}/${r.kind}`, `${r.group}/${r.version}/${r.kind}List`])));

/** The package of a group's internal types, which its versions convert through (events.k8s.io's Event is core's). */
const internalPackage = (group: string): string => (group === '' || group === 'events.k8s.io' ? 'core' : group.split('.')[0]!);

/**
 * A body of another apiVersion or kind than the resource's, refused as upstream's create and update handlers refuse
 * it: the decoder reads the kind the body names, then converts it to the resource's internal type. Another version
 * of the same type converts, and is then refused for its version; another kind does not convert, or is not known.
 */
function typeMetaMismatch(apiVersion: string, kind: string, target: Target): StatusError {
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  // (versions upstream still decodes but no longer serves, such as apps/v1beta1, count as the same type here)
  if (kind === target.kind && internalPackage(group) === internalPackage(target.group)) {
    return badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${apiVersionOf(target.group, target.version)})`);
  }
  const why = REGISTERED.has(`${group}/${version}/${kind}`)
    ? `converting (${version}.${kind}) to (${internalPackage(target.group)}.${target.kind}): unknown conversion`
    : `no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/api/legacyscheme/scheme.go:30"`;
  return badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${target.kind}: ${why}`);
}

function decodeBuiltIn(d: Decoder, sent: KubeObject, target: Target, ctx: RequestContext, floats: readonly FloatLiteral[] | undefined): KubeObject {
  const apiVersion = apiVersionOf(target.group, target.version);
  if ((sent.kind !== undefined && sent.kind !== target.kind) || (sent.apiVersion !== undefined && sent.apiVersion !== apiVersion)) {
    throw typeMetaMismatch(String(sent.apiVersion ?? apiVersion), String(sent.kind ?? target.kind), target);
  }
  // kind, then apiVersion, first, as Go's TypeMeta serializes them (clients send either order): lists serve stored
  // items past them (list-items.ts)
  const obj = { kind: target.kind, apiVersion, ...sent } as KubeObject;
  obj.apiVersion = apiVersion;
  obj.kind = target.kind;
  // Unknown fields and nulls go first: a null is Go's zero value, never a type error.
  const unknown = pruneUnknown(d.index, obj, refTo(target.definition), '', 'json', true);
  d.types.check(obj, target.definition, target.kind, target.version, floats);
  reportStrictErrors(unknown, ctx, target, true);
  applyDefaults(d.index, obj, refTo(target.definition));
  canonicalizeValues(d.index, obj, refTo(target.definition));
  writeZeroValues(d, obj, target.definition);
  return obj;
}

/** Go's zero values of a built-in object (zero-values.ts); a custom resource's own decoder has none to write. */
export function writeZeroValues(d: Decoder, obj: KubeObject, definition: string): void {
  if (!d.decode) fillZeroValues(d.index, obj, refTo(definition));
}

/**
 * A body that is not stored (a review, a binding, an eviction) read as a `kind` the way a decoder reads it: no object
 * or a wrong JSON type is 400; nulls and unknown fields go. With the request's `ctx` (a create of a subresource, as
 * pods/binding), the unknown and repeated fields are reported per fieldValidation, as upstream's create handler does.
 */
export function decodeAs(d: Decoder, body: unknown, definition: string, kind: string, version: string, ctx?: RequestContext, floats = floatLiteralsOf(body)): KubeObject {
  if (!isPlainObject(body)) throw badRequest(`the body of a ${kind} must be an object`);
  const unknown = pruneUnknown(d.index, body, refTo(definition));
  d.types.check(body, definition, kind, version, floats);
  if (ctx) reportStrictErrors(unknown, ctx, { kind, version }, true);
  return body as KubeObject;
}
