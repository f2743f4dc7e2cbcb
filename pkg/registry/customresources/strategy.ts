// How a custom resource differs from the generic store (upstream: registry/customresource/strategy.go and
// validator.go): generation on every change outside metadata and status, status through /status when the
// subresource is on, schema + embedded-resource + list-type + CEL validation as 422 field errors (an update's
// unchanged values ratcheted), the scale subresource over the CRD's JSONPaths, strategic merge patch refused,
// a POST's create refused while the CRD terminates.
import type { CustomResourceSubresourceScale, JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { KubeObject, ObjectMeta } from '../../../api/types.js';
import { fieldCause, methodNotAllowed, type StatusCause } from '../../apimachinery/errors.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/objectmeta.js';
import type { RequestContext } from '../context.js';
import type { Strategy } from '../strategy.js';
import { hasRules, validateRules } from './cel.js';
import { getPath, setPath, simplePath } from './jsonpath.js';
import { hasListSetsOrMaps, validateListSetsAndMaps } from './listtype.js';
import { Correlation, ratchetsSchemaError } from './ratcheting.js';
import { compileValidator, validateWithSchema } from './validation.js';
import { validateEmbedded } from './embedded.js';
import { finalizerWarnings } from '../validation/finalizers.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export interface CustomResourceStrategyOptions {
  schema: JSONSchemaProps | undefined;
  hasStatus: boolean;
  scale?: CustomResourceSubresourceScale;
  /** Whether the CRD is being deleted (creates are refused meanwhile). */
  terminating(): boolean;
  kind: string;
  /** The CRD's scope: its objects' metadata errors decide, with the schema's, whether CEL rules run. */
  namespaced?: boolean;
}

/** What upstream's field.Invalid(nil, nil, ...) says when schema errors keep the CEL rules from running. */
const RULES_NOT_CHECKED = fieldCause('FieldValueInvalid', '<nil>',
  'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation');

/** The errors that keep CEL rules from running (upstream's hasBlockingErr): type, required, enum and size violations. */
const BLOCKING = new Set(['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid']);
const blocking = (causes: StatusCause[]): boolean => causes.some((c) => BLOCKING.has(c.reason ?? ''));

/**
 * Whether the metadata can have a blocking error at all: a missing name or namespace, annotations or a field
 * manager long enough to pass their size limits. Most have none, and are then not validated a second time here.
 */
const metadataMayBlock = (m: ObjectMeta | undefined, namespaced: boolean): boolean =>
  !m?.name || (namespaced && !m.namespace) || m.annotations !== undefined ||
  (m.managedFields?.some((e) => (e.manager?.length ?? 0) * 3 > 128 || (e.subresource?.length ?? 0) > 256) ?? false);

export function customResourceStrategy(o: CustomResourceStrategyOptions): Strategy {
  const validator = compileValidator(o.schema);
  // upstream validates a status update against the status property's schema alone, its messages naming paths from it
  const statusSchema = o.hasStatus ? o.schema?.properties?.status : undefined;
  const statusValidator = statusSchema && compileValidator(statusSchema);
  const rules = hasRules(o.schema);
  const namespaced = o.namespaced ?? true;
  const lists = hasListSetsOrMaps(o.schema);
  // The whole object, metadata included, as upstream's ValidateCustomResource: a root `required: [metadata]` is met
  // by the object's metadata, and what the schema may say of metadata (the CRD's validation allows type object and
  // the schemas of name and generateName) holds, besides the ObjectMeta checks of the generic store.
  const schemaCauses = (obj: KubeObject, ratchet?: Correlation): StatusCause[] =>
    validateWithSchema(validator, obj, '', ratchet && { drop: (e) => ratchetsSchemaError(e, ratchet) });
  const listCauses = (obj: KubeObject): StatusCause[] => (lists ? validateListSetsAndMaps(obj, o.schema) : []);
  /** A set or map list's duplicates are refused only when the stored object had none. */
  const listCausesOnUpdate = (obj: KubeObject, old: KubeObject): StatusCause[] => {
    const causes = listCauses(obj);
    return causes.length && listCauses(old).length ? [] : causes;
  };
  /**
   * The CEL rules, unless an error so far (the metadata's, which the generic store reports, included) is a
   * blocking one: then only a note that they did not run.
   */
  const celCauses = (causes: StatusCause[], obj: KubeObject, meta: () => StatusCause[], run: () => StatusCause[]): StatusCause[] =>
    (blocking(causes) || (metadataMayBlock(obj.metadata, namespaced) && blocking(meta())) ? [RULES_NOT_CHECKED] : run());
  const celOf = (obj: KubeObject, old: KubeObject | undefined, ctx: RequestContext, ratchet?: Correlation): StatusCause[] =>
    validateRules(celView(obj), old && celView(old), o.schema, { rootField: '<nil>', ratchet, warn: (w) => ctx.warnings.push(w) });

  const strategy: Strategy = {
    generation: true,
    strategicMergePatch: false,
    statusKeepsMetadata: 'all',
    allowUnconditionalUpdate: false,
    validate: (obj, ctx) => {
      const causes = [...schemaCauses(obj), ...validateEmbedded(obj, o.schema), ...listCauses(obj)];
      if (!rules) return causes;
      return [...causes, ...celCauses(causes, obj, () => validateObjectMeta(obj.metadata, { namespaced }), () => celOf(obj, undefined, ctx))];
    },
    // An update is validated whole here: its rules see oldSelf (transition rules run, optionalOldSelf ones get it
    // as an optional, messages may read it), as upstream's one validation with the old object. What the update
    // left as it was ratchets: its schema errors are dropped, its failed rules warn.
    updateValidationIsComplete: true,
    validateUpdate: (obj, old, ctx) => {
      const ratchet = new Correlation(obj, old, o.schema);
      const causes = [...schemaCauses(obj, ratchet), ...validateEmbedded(obj, o.schema), ...listCausesOnUpdate(obj, old)];
      if (!rules) return causes;
      return [...causes, ...celCauses(causes, obj, () => validateObjectMetaUpdate(obj.metadata, old.metadata), () => celOf(obj, old, ctx, ratchet))];
    },
    // as upstream's status strategy: the status alone against its schema, nothing ratcheted, embedded resources unchecked
    validateSubresource: (obj, old, ctx, subresource) => {
      if (subresource !== 'status') return [];
      const causes = statusValidator && obj.status !== undefined ? validateWithSchema(statusValidator, obj.status, 'status', { namePrefix: '' }) : [];
      causes.push(...listCausesOnUpdate(obj, old));
      if (!rules) return causes;
      return [...causes, ...celCauses(causes, obj, () => validateObjectMetaUpdate(obj.metadata, old.metadata), () => celOf(obj, old, ctx))];
    },
    // a finalizer that may clash with another writer's is warned of when added, not refused (upstream's built-ins refuse it)
    warningsOnCreate: (obj) => finalizerWarnings(obj.metadata?.finalizers),
    warningsOnUpdate: (obj, old) => finalizerWarnings(obj.metadata?.finalizers, old.metadata?.finalizers),
    // upstream's crdHandler, for the create verb alone: NewMethodNotSupported(GroupResource, verb), its message replaced
    refuseCreate: (gr) => {
      if (o.terminating()) throw methodNotAllowed('create not allowed while custom resource definition is terminating', { group: gr.group, kind: gr.resource });
    },
  };
  if (o.scale) strategy.scale = scaleAccess(o.scale);
  return strategy;
}

/** Rules see metadata as upstream's CEL does: name and generateName only. */
function celView(obj: KubeObject): KubeObject {
  const meta: Record<string, unknown> = {};
  if (obj.metadata?.name !== undefined) meta.name = obj.metadata.name;
  if (obj.metadata?.generateName !== undefined) meta.generateName = obj.metadata.generateName;
  return { ...obj, metadata: meta };
}

function scaleAccess(s: CustomResourceSubresourceScale): NonNullable<Strategy['scale']> {
  const replicasPath = simplePath(s.specReplicasPath);
  return {
    replicasPath,
    get(obj) {
      const m = obj.metadata ?? {};
      const replicas = getPath(obj, replicasPath);
      const statusReplicas = getPath(obj, simplePath(s.statusReplicasPath));
      let selector = '';
      if (s.labelSelectorPath) {
        const sel = getPath(obj, simplePath(s.labelSelectorPath));
        selector = typeof sel === 'string' ? sel : sel && typeof sel === 'object' ? labelSelectorAsSelector(sel as never).toString() : '';
      }
      const status: Record<string, unknown> = { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 };
      if (selector) status.selector = selector;
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
        spec: { replicas: typeof replicas === 'number' ? replicas : 0 },
        status,
      };
    },
    set(obj, replicas) {
      const next = cloneJson(obj);
      setPath(next, replicasPath, replicas);
      return next;
    },
  };
}
