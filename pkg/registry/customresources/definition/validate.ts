// CustomResourceDefinition validation as upstream's apiextensions validation.go words it. Upstream validates the
// internal form of a v1 CRD: when every version has the same schema (subresources, printer columns) it is
// lifted to spec.validation (spec.subresources, spec.additionalPrinterColumns), so errors carry those paths
// ("spec.validation.openAPIV3Schema.properties[foo].type: Required value: ...") and per-version paths otherwise.
import type { CustomResourceDefinition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion, CustomResourceSubresources, JSONSchemaProps } from '../../../../api/apiextensions/v1/index.js';
import type { StatusCause } from '../../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required, duplicate } from '../../../apimachinery/field.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../apimachinery/names.js';
import { validateClientConfig } from '../../strategies/admission-webhooks.js';
import { costTotal, crdCostExceeded } from '../cel.js';
import { validateAPIApproval } from './api-approval.js';
import { resolveFieldPath } from './field-path.js';
import { validateOpenAPISchema, mapListKeysMapSet, type SchemaOptions } from './openapi-schema.js';
import { validateDefaults } from './schema-defaults.js';
import { validateStructural } from './structural.js';

type Spec = CustomResourceDefinition['spec'];

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const MAX_SELECTABLE_FIELDS = 8;
// Go field names of JSONSchemaProps in declaration order (upstream walks them to find the first one not allowed
// at the root when the status subresource is on), with their JSON names.
const ROOT_FIELDS: Array<[string, string]> = [
  ['ID', 'id'], ['Schema', '$schema'], ['Ref', '$ref'], ['Description', 'description'], ['Type', 'type'], ['Format', 'format'],
  ['Title', 'title'], ['Default', 'default'], ['Maximum', 'maximum'], ['ExclusiveMaximum', 'exclusiveMaximum'], ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'], ['MaxLength', 'maxLength'], ['MinLength', 'minLength'], ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'], ['MinItems', 'minItems'], ['UniqueItems', 'uniqueItems'], ['MultipleOf', 'multipleOf'], ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'], ['MinProperties', 'minProperties'], ['Required', 'required'], ['Items', 'items'], ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'], ['AnyOf', 'anyOf'], ['Not', 'not'], ['Properties', 'properties'], ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'], ['Dependencies', 'dependencies'], ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'], ['ExternalDocs', 'externalDocs'], ['Example', 'example'], ['Nullable', 'nullable'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'], ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'], ['XListMapKeys', 'x-kubernetes-list-map-keys'], ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'], ['XValidations', 'x-kubernetes-validations'],
];
const ROOT_ALLOWED = ['Description', 'Type', 'Format', 'Title', 'Maximum', 'ExclusiveMaximum', 'Minimum', 'ExclusiveMinimum', 'MaxLength', 'MinLength',
  'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MultipleOf', 'Required', 'Items', 'Properties', 'ExternalDocs', 'Example', 'XPreserveUnknownFields', 'XValidations'];

interface Options extends SchemaOptions {
  requireOpenAPISchema: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireRecognizedConversionReviewVersion: boolean;
  /** Versions whose schema an update left alone. */
  unchangedSchemas: Set<string>;
}

const CREATE_OPTIONS: Options = {
  allowDefaults: true, requireValidPropertyType: true, requireAtomicSetType: true, requireMapListKeysMapSetValidation: true,
  compileRules: true, suppressPerExpressionCost: false, requireOpenAPISchema: true, requireStructuralSchema: true,
  requirePrunedDefaults: true, requireRecognizedConversionReviewVersion: true, unchangedSchemas: new Set(),
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0)
  || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** The per-version fields upstream lifts to spec when all versions agree. */
interface Lifted {
  schema?: JSONSchemaProps;
  schemaLifted: boolean;
  subresources?: CustomResourceSubresources;
  subresourcesLifted: boolean;
  columnsLifted: boolean;
  selectableLifted: boolean;
}

function lift(versions: CustomResourceDefinitionVersion[]): Lifted {
  const first = versions[0];
  const all = <T>(get: (v: CustomResourceDefinitionVersion) => T): boolean => versions.every((v) => same(get(v) ?? null, get(first!) ?? null));
  return {
    schema: first?.schema?.openAPIV3Schema,
    schemaLifted: Boolean(first) && all((v) => v.schema),
    subresources: first?.subresources,
    subresourcesLifted: Boolean(first) && all((v) => v.subresources),
    columnsLifted: Boolean(first) && all((v) => (v.additionalPrinterColumns?.length ? v.additionalPrinterColumns : undefined)),
    selectableLifted: Boolean(first) && all((v) => (v.selectableFields?.length ? v.selectableFields : undefined)),
  };
}

export function validateNames(names: Partial<CustomResourceDefinitionNames> | undefined, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const n = names ?? {};
  const dns = (field: string, v: string | undefined, lower = false): void => {
    if (!v) return;
    const errs = isDNS1035Label(lower ? v.toLowerCase() : v);
    if (errs.length) causes.push(invalidValue(`${path}.${field}`, v, lower ? `may have mixed case, but should otherwise match: ${errs.join(',')}` : errs.join(',')));
  };
  dns('plural', n.plural);
  dns('singular', n.singular);
  dns('kind', n.kind, true);
  dns('listKind', n.listKind, true);
  (n.shortNames ?? []).forEach((s, i) => {
    const errs = isDNS1035Label(s);
    if (errs.length) causes.push(invalidValue(`${path}.shortNames[${i}]`, s, errs.join(',')));
  });
  if (n.kind && n.kind === n.listKind) causes.push(invalidValue(`${path}.listKind`, n.listKind, 'kind and listKind may not be the same'));
  (n.categories ?? []).forEach((s, i) => {
    const errs = isDNS1035Label(s);
    if (errs.length) causes.push(invalidValue(`${path}.categories[${i}]`, s, errs.join(',')));
  });
  return causes;
}

function simpleJSONPath(s: string, path: string): StatusCause[] {
  if (!s) return [invalidValue(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [invalidValue(path, s, 'must be a simple json path starting with .')];
  return [];
}

function validateSubresources(sub: CustomResourceSubresources | undefined, path: string): StatusCause[] {
  const scale = sub?.scale;
  if (!scale) return [];
  const causes: StatusCause[] = [];
  const check = (field: string, v: string | undefined, prefixes: string[], detail: string, optional = false): void => {
    const at = `${path}.scale.${field}`;
    if (!v) {
      if (!optional) causes.push(required(at));
      return;
    }
    const errs = simpleJSONPath(v, at);
    if (errs.length) causes.push(...errs);
    else if (!prefixes.some((p) => v.startsWith(p))) causes.push(invalidValue(at, v, detail));
  };
  check('specReplicasPath', scale.specReplicasPath, ['.spec.'], 'should be a json path under .spec');
  check('statusReplicasPath', scale.statusReplicasPath, ['.status.'], 'should be a json path under .status');
  check('labelSelectorPath', scale.labelSelectorPath, ['.spec.', '.status.'], 'should be a json path under either .spec or .status', true);
  return causes;
}

function validateColumns(columns: CustomResourceDefinitionVersion['additionalPrinterColumns'], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  (columns ?? []).forEach((col, i) => {
    const at = `${path}[${i}]`;
    if (!col.name) causes.push(required(`${at}.name`));
    if (!col.type) causes.push(required(`${at}.type`, `must be one of ${COLUMN_TYPES.join(',')}`));
    else if (!COLUMN_TYPES.includes(col.type)) causes.push(invalidValue(`${at}.type`, col.type, `must be one of ${COLUMN_TYPES.join(',')}`));
    if (col.format && !COLUMN_FORMATS.includes(col.format)) causes.push(invalidValue(`${at}.format`, col.format, `must be one of ${COLUMN_FORMATS.join(',')}`));
    if (!col.jsonPath) causes.push(required(`${at}.JSONPath`));
    else causes.push(...simpleJSONPath(col.jsonPath, `${at}.JSONPath`));
  });
  return causes;
}

function validateSelectableFields(fields: CustomResourceDefinitionVersion['selectableFields'], schema: JSONSchemaProps | undefined, path: string): StatusCause[] {
  if (!fields?.length) return [];
  if (!schema) return [invalidValue(path, '', 'may only be set when `version.schema.openAPIV3Schema` is not included')];
  const causes: StatusCause[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const at = `${path}[${i}].jsonPath`;
    if (!f.jsonPath) {
      causes.push(required(at));
      return;
    }
    const r = resolveFieldPath(f.jsonPath, schema, { allowBrackets: false, allowIndex: false });
    if (typeof r === 'string') {
      causes.push(invalidValue(at, f.jsonPath, `is an invalid path: ${r}`));
      return;
    }
    if (r.root === 'metadata') causes.push(invalidValue(at, f.jsonPath, 'must not point to fields in metadata'));
    if (!['string', 'boolean', 'integer'].includes(r.schema.type ?? '')) {
      causes.push(invalidValue(at, f.jsonPath, 'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.'));
    }
    if (unique.has(r.normalized)) causes.push(duplicate(at, f.jsonPath));
    unique.add(r.normalized);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) causes.push({ reason: 'FieldValueTooMany', field: path, message: `Too many: ${unique.size}: must have at most ${MAX_SELECTABLE_FIELDS} items` });
  return causes;
}

function deprecationWarning(v: CustomResourceDefinitionVersion, path: string): StatusCause[] {
  const w = v.deprecationWarning;
  if (!v.deprecated && w !== undefined && w !== null) return [invalidValue(`${path}.deprecationWarning`, w, 'can only be set for deprecated versions')];
  if (w === undefined || w === null) return [];
  const errs: string[] = [];
  if (w.length > 256) errs.push('must be <= 256 characters long');
  if (w.length === 0) errs.push('must not be an empty string');
  const bad = [...w].findIndex((ch) => /[\p{Cc}\p{Cn}\p{Cs}]/u.test(ch));
  if (bad >= 0) errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${bad}`);
  return errs.map((e) => invalidValue(`${path}.deprecationWarning`, w, e));
}

/** The schema of one version or of spec.validation (upstream: validateCustomResourceDefinitionValidation). */
function validateSchemaAt(schema: JSONSchemaProps | undefined, statusEnabled: boolean, opts: Options, path: string): StatusCause[] {
  if (!schema) return [];
  const causes: StatusCause[] = [];
  const at = `${path}.openAPIV3Schema`;
  if (statusEnabled) {
    for (const [goName, json] of ROOT_FIELDS) {
      const v = (schema as Record<string, unknown>)[json];
      if (isEmpty(v)) continue;
      if (goName === 'Type') {
        if (v !== 'object') {
          causes.push(invalidValue(`${at}.type`, v, 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled'));
          break;
        }
        continue;
      }
      if (!ROOT_ALLOWED.includes(goName)) {
        causes.push(invalidValue(at, schema, `only [${ROOT_ALLOWED.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`));
        break;
      }
    }
  }
  if (schema.nullable) causes.push(forbidden(`${at}.nullable`, 'nullable cannot be true at the root'));
  let structural = false;
  if (opts.requireStructuralSchema) {
    const errs = validateStructural(schema, at);
    if (errs.length) causes.push(...errs);
    else {
      const defaults = validateDefaults(schema, at, opts.requirePrunedDefaults);
      causes.push(...defaults);
      structural = defaults.length === 0;
    }
  }
  const cost = costTotal();
  causes.push(...validateOpenAPISchema(schema, at, { ...opts, compileRules: structural }, cost));
  if (structural) causes.push(...crdCostExceeded(cost, at));
  return causes;
}

function validateConversion(spec: Spec, opts: Options): StatusCause[] {
  const conv = spec.conversion;
  if (!conv) return [];
  const causes: StatusCause[] = [];
  const strategies = ['None', 'Webhook'];
  if (!conv.strategy) causes.push(required('spec.conversion.strategy'));
  else if (!strategies.includes(conv.strategy)) causes.push(notSupported('spec.conversion.strategy', conv.strategy, strategies));
  if (conv.strategy === 'Webhook') {
    const cc = conv.webhook?.clientConfig;
    if (!cc) causes.push(required('spec.conversion.webhookClientConfig', 'required when strategy is set to Webhook'));
    else causes.push(...validateClientConfig(cc as Record<string, any>, 'spec.conversion.webhookClientConfig'));
    const versions = conv.webhook?.conversionReviewVersions ?? [];
    const at = 'spec.conversion.conversionReviewVersions';
    if (!versions.length) causes.push(required(at));
    else {
      const seen = new Set<string>();
      versions.forEach((v, i) => {
        if (seen.has(v)) {
          causes.push(invalidValue(`${at}[${i}]`, v, 'duplicate version'));
          return;
        }
        seen.add(v);
        for (const e of isDNS1035Label(v)) causes.push(invalidValue(`${at}[${i}]`, v, e));
      });
      if (opts.requireRecognizedConversionReviewVersion && !versions.some((v) => v === 'v1' || v === 'v1beta1')) {
        causes.push(invalidValue(at, versions, 'must include at least one of v1, v1beta1'));
      }
    }
  } else if (conv.webhook) {
    if (conv.webhook.clientConfig) causes.push(forbidden('spec.conversion.webhookClientConfig', 'should not be set when strategy is not set to Webhook'));
    if (conv.webhook.conversionReviewVersions?.length) causes.push(forbidden('spec.conversion.conversionReviewVersions', 'should not be set when strategy is not set to Webhook'));
  }
  return causes;
}

function validateSpec(spec: Spec, opts: Options): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!spec.group) causes.push(required('spec.group'));
  else {
    const errs = isDNS1123Subdomain(spec.group);
    if (errs.length) causes.push(invalidValue('spec.group', spec.group, errs.join(',')));
    else if (spec.group.split('.').length < 2) causes.push(invalidValue('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  if (!spec.scope) causes.push(required('spec.scope'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') causes.push(notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']));

  const versions = spec.versions ?? [];
  const lifted = lift(versions);
  if (opts.requireOpenAPISchema && !lifted.schema) {
    versions.forEach((v, i) => {
      if (!v.schema?.openAPIV3Schema) causes.push(required(`spec.versions[${i}].schema.openAPIV3Schema`));
    });
  }
  const anyStatus = versions.some((v) => v.subresources?.status !== undefined);
  let storage = 0;
  const names = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    if (v.storage) storage++;
    if (names.has(v.name)) unique = false;
    names.add(v.name);
    const errs = isDNS1035Label(v.name ?? '');
    if (errs.length) causes.push(invalidValue(`${at}.name`, v.name ?? '', errs.join(',')));
    causes.push(...deprecationWarning(v, at));
    const vOpts = opts.unchangedSchemas.has(v.name) ? { ...opts, suppressPerExpressionCost: true } : opts;
    if (!lifted.schemaLifted) causes.push(...validateSchemaAt(v.schema?.openAPIV3Schema, v.subresources?.status !== undefined, vOpts, `${at}.schema`));
    if (!lifted.subresourcesLifted) causes.push(...validateSubresources(v.subresources, `${at}.subresources`));
    if (!lifted.columnsLifted) causes.push(...validateColumns(v.additionalPrinterColumns, `${at}.additionalPrinterColumns`));
    if (!lifted.selectableLifted) causes.push(...validateSelectableFields(v.selectableFields, v.schema?.openAPIV3Schema, `${at}.selectableFields`));
  });
  if (!unique) causes.push(invalidValue('spec.versions', versions, 'must contain unique version names'));
  if (storage !== 1) causes.push(invalidValue('spec.versions', versions, 'must have exactly one version marked as storage version'));

  const n = spec.names ?? ({} as CustomResourceDefinitionNames);
  if (!n.plural) causes.push(required('spec.names.plural'));
  if (!n.singular) causes.push(required('spec.names.singular'));
  if (!n.kind) causes.push(required('spec.names.kind'));
  if (!n.listKind) causes.push(required('spec.names.listKind'));
  causes.push(...validateNames(n, 'spec.names'));

  if (lifted.schemaLifted) {
    const vOpts = opts.unchangedSchemas.has(versions[0]?.name ?? '') ? { ...opts, suppressPerExpressionCost: true } : opts;
    causes.push(...validateSchemaAt(lifted.schema, anyStatus, vOpts, 'spec.validation'));
  }
  if (lifted.subresourcesLifted) causes.push(...validateSubresources(lifted.subresources, 'spec.subresources'));
  if (lifted.columnsLifted) causes.push(...validateColumns(versions[0]?.additionalPrinterColumns, 'spec.additionalPrinterColumns'));
  if (lifted.selectableLifted) causes.push(...validateSelectableFields(versions[0]?.selectableFields, lifted.schema, 'spec.selectableFields'));
  causes.push(...validateConversion(spec, opts));
  return causes;
}

export function validateStoredVersions(crd: CustomResourceDefinition): StatusCause[] {
  const stored = crd.status?.storedVersions ?? [];
  const path = 'status.storedVersions';
  if (!stored.length) return [invalidValue(path, stored, 'must have at least one stored version')];
  const causes: StatusCause[] = [];
  const left = new Map(stored.map((v, i) => [v, i]));
  for (const v of crd.spec?.versions ?? []) {
    if (v.storage && !left.has(v.name)) causes.push(invalidValue(path, stored, `must have the storage version ${v.name}`));
    left.delete(v.name);
  }
  for (const [v, i] of left) {
    causes.push(invalidValue(`${path}[${i}]`, v, `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`));
  }
  return causes;
}

function preserveUnknownFields(crd: CustomResourceDefinition, old?: CustomResourceDefinition): StatusCause[] {
  if (old?.spec?.preserveUnknownFields) return [];
  if (crd.spec?.preserveUnknownFields) return [invalidValue('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')];
  return [];
}

/** Create: metadata.name is plural.group, then spec, accepted names, stored versions, API approval. */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition): StatusCause[] {
  const spec = crd.spec ?? ({} as Spec);
  const causes: StatusCause[] = [];
  const name = crd.metadata?.name ?? '';
  if (name && name !== `${spec.names?.plural ?? ''}.${spec.group ?? ''}`) causes.push(invalidValue('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  causes.push(...validateSpec(spec, CREATE_OPTIONS));
  causes.push(...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'));
  causes.push(...validateStoredVersions(crd));
  causes.push(...validateAPIApproval(crd));
  causes.push(...preserveUnknownFields(crd));
  return causes;
}

const schemasOf = (spec: Spec | undefined): JSONSchemaProps[] =>
  (spec?.versions ?? []).map((v) => v.schema?.openAPIV3Schema).filter((s): s is JSONSchemaProps => Boolean(s));

const someNode = (s: JSONSchemaProps | undefined, pred: (n: JSONSchemaProps) => boolean): boolean => {
  if (!s) return false;
  if (pred(s)) return true;
  const kids: Array<JSONSchemaProps | undefined> = [
    ...(Array.isArray(s.items) ? s.items : [s.items]), ...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []), s.not,
    ...Object.values(s.properties ?? {}), typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined,
    ...Object.values(s.patternProperties ?? {}), typeof s.additionalItems === 'object' ? s.additionalItems : undefined,
    ...Object.values(s.definitions ?? {}), ...Object.values(s.dependencies ?? {}).map((d) => (Array.isArray(d) ? undefined : d)),
  ];
  return kids.some((k) => someNode(k, pred));
};

const setItemsNonAtomic = (n: JSONSchemaProps): boolean => {
  const items = Array.isArray(n.items) ? undefined : n.items;
  if (n['x-kubernetes-list-type'] !== 'set' || !items) return false;
  if (items.type === 'array') return items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic';
  return items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic';
};

/** Update: what the stored CRD already violates is not tightened (upstream's ratcheting options), names immutable once established. */
export function validateCustomResourceDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): StatusCause[] {
  const oldSchemas = schemasOf(old.spec);
  const oldVersions = new Map((old.spec?.versions ?? []).map((v) => [v.name, v.schema]));
  const established = old.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  const oldReviews = old.spec?.conversion?.webhook?.conversionReviewVersions ?? [];
  const opts: Options = {
    ...CREATE_OPTIONS,
    requireRecognizedConversionReviewVersion: !oldReviews.length || oldReviews.some((v) => v === 'v1' || v === 'v1beta1'),
    requireOpenAPISchema: (old.spec?.versions ?? []).every((v) => v.schema?.openAPIV3Schema),
    requireValidPropertyType: !oldSchemas.some((s) => someNode(s, (n) => Boolean(n.type) && !['array', 'boolean', 'integer', 'number', 'object', 'string'].includes(n.type!))),
    requireAtomicSetType: !oldSchemas.some((s) => someNode(s, setItemsNonAtomic)),
    requireMapListKeysMapSetValidation: !oldSchemas.some((s) => someNode(s, (n) => mapListKeysMapSet(n, '').length > 0)),
    requirePrunedDefaults: !oldSchemas.some((s) => validateDefaults(s, '', true).some((c) => c.message?.endsWith('must not have unknown fields'))),
    unchangedSchemas: new Set((crd.spec?.versions ?? []).filter((v) => oldVersions.has(v.name) && same(oldVersions.get(v.name), v.schema)).map((v) => v.name)),
  };
  const causes = validateSpec(crd.spec ?? ({} as Spec), opts);
  if (established) {
    if (crd.spec?.scope !== old.spec?.scope) causes.push(invalidValue('spec.scope', crd.spec?.scope ?? '', 'field is immutable'));
    if (crd.spec?.names?.kind !== old.spec?.names?.kind) causes.push(invalidValue('spec.names.kind', crd.spec?.names?.kind ?? '', 'field is immutable'));
  }
  if (crd.spec?.group !== old.spec?.group) causes.push(invalidValue('spec.group', crd.spec?.group ?? '', 'field is immutable'));
  if (crd.spec?.names?.plural !== old.spec?.names?.plural) causes.push(invalidValue('spec.names.plural', crd.spec?.names?.plural ?? '', 'field is immutable'));
  causes.push(...validateNames(crd.status?.acceptedNames, 'status.acceptedNames'));
  causes.push(...validateStoredVersions(crd));
  causes.push(...validateAPIApproval(crd, old));
  causes.push(...preserveUnknownFields(crd, old));
  return causes;
}

/** The structural violations of each stored version's schema (the NonStructuralSchema condition's message). */
export function nonStructuralViolations(crd: CustomResourceDefinition): StatusCause[] {
  const causes: StatusCause[] = [];
  if (crd.spec?.preserveUnknownFields) causes.push(invalidValue('spec.preserveUnknownFields', true, 'must be false'));
  (crd.spec?.versions ?? []).forEach((v, i) => {
    const s = v.schema?.openAPIV3Schema;
    if (s) causes.push(...validateStructural(s, `spec.versions[${i}].schema.openAPIV3Schema`));
  });
  return causes;
}
