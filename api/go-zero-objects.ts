// The zero object of a built-in kind as encoding/json writes it: what upstream's scope.Creater.New(kind) and a
// cacher's newFunc() hold before anything is set, made from go-zero-values.ts (structs `{}` and their own zero values,
// times and nil pointers, lists and maps `null`, scalars without omitempty at their zero), keys in Go's field order.
// A create's field manager compares with it as it is; a watch's BOOKMARK object went through the conversion from the
// internal type to the version watched first, which adds what is below (kept apart: the field manager never sees it).
//
//   goZeroObject(definition, lookup, converted?): Record<string, unknown> | undefined
import { goZeroValues } from './go-zero-values.js';
import { refName, type Schema } from './schema.js';

/**
 * Fields the conversion from the internal type writes into a zero object, each its struct's first field in Go's order:
 * the internal type's plain int32 `replicas` is the served version's omitempty *int32, set to point at 0
 * (Convert_int32_To_Pointer_int32). Facts from k8s.io/kubernetes v1.32's pkg/apis/apps/v1 and core/v1 conversions.
 */
export const conversionZeros: Record<string, Record<string, unknown>> = {
  'io.k8s.api.apps.v1.DeploymentSpec': { replicas: 0 },
  'io.k8s.api.apps.v1.ReplicaSetSpec': { replicas: 0 },
  'io.k8s.api.apps.v1.StatefulSetSpec': { replicas: 0 },
  'io.k8s.api.core.v1.ReplicationControllerSpec': { replicas: 0 },
};

/** Annotations the conversion from the internal type writes on every object of the kind, a zero one included. */
export const conversionAnnotations: Record<string, Record<string, string>> = {
  // Convert_apps_DaemonSet_To_v1_DaemonSet: the internal spec.templateGeneration (0 at zero)
  'io.k8s.api.apps.v1.DaemonSet': { 'deprecated.daemonset.template.generation': '0' },
};

/** Built-in definitions by name. */
export type DefinitionLookup = (name: string) => Schema | undefined;

/** The definition a property refers to: `$ref`, or api/schema.ts's `allOf: [{$ref}]` wrapper that adds a description. */
const definitionOf = (s: Schema): string | undefined => refName(s) ?? (s.allOf?.length === 1 ? refName(s.allOf[0]) : undefined);

/** What the MarshalJSON of apimachinery's scalar-like structs writes for their zero value. */
const MARSHALLED_ZEROS: Record<string, unknown> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 0,
  'io.k8s.apimachinery.pkg.api.resource.Quantity': '0',
};

/** The zero value of a scalar schema type, or of the scalar-like definition it refers to, as Go writes it. */
export const scalarZero = (type: string | undefined, definition?: string): unknown => {
  switch (type) {
    case 'string': return '';
    case 'integer':
    case 'number': return 0;
    case 'boolean': return false;
    default: return definition === undefined ? undefined : MARSHALLED_ZEROS[definition];
  }
};

const zeroStruct = (definition: string | undefined, lookup: DefinitionLookup, converted: boolean): Record<string, unknown> => {
  const out: Record<string, unknown> = definition && converted ? { ...conversionZeros[definition] } : {};
  const s = definition ? lookup(definition) : undefined;
  for (const [key, kind] of Object.entries((definition && goZeroValues[definition]) || {})) {
    const property = s?.properties?.[key];
    if (!property) continue;
    const def = definitionOf(property);
    if (kind === 'struct') out[key] = zeroStruct(def, lookup, converted);
    else if (kind === 'null' || kind === 'nil') out[key] = null;
    else {
      const value = scalarZero(property.type ?? (def ? lookup(def)?.type : undefined), def);
      if (value !== undefined) out[key] = value;
    }
  }
  return out;
};

/**
 * The zero object of the built-in kind `definition` names, a fresh one per call; `converted`: as the conversion from
 * the internal type writes it. Undefined for a definition that go-zero-values.ts does not know (a custom resource's).
 */
export const goZeroObject = (definition: string, lookup: DefinitionLookup, converted = false): Record<string, unknown> | undefined =>
  (goZeroValues[definition] ? zeroStruct(definition, lookup, converted) : undefined);
