// CustomResourceDefinitions (upstream: apiextensions-apiserver pkg/registry/customresourcedefinition and
// pkg/apis/apiextensions/validation): the essential checks of names, versions, scope, schemas and conversion;
// storedVersions kept; deletion marks the CRD with the customresourcecleanup finalizer and Terminating, and the
// CRD controller removes the custom resources before letting it go.
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionVersion, JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../apimachinery/names.js';
import { ruleCompileErrors } from '../customresources/cel.js';
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';

export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

const quote = (v: unknown): string => JSON.stringify(v ?? '');

function validateNames(crd: CustomResourceDefinition): StatusCause[] {
  const causes: StatusCause[] = [];
  const names = crd.spec?.names ?? ({} as CustomResourceDefinition['spec']['names']);
  const lower = (field: string, v: string | undefined, required: boolean): void => {
    if (!v) {
      if (required) causes.push(fieldCause('FieldValueRequired', field, 'Required value'));
      return;
    }
    const errs = isDNS1035Label(v);
    if (errs.length) causes.push(fieldCause('FieldValueInvalid', field, `Invalid value: ${quote(v)}: ${errs.join(', ')}`));
  };
  lower('spec.names.plural', names.plural, true);
  lower('spec.names.singular', names.singular, true);
  if (!names.kind) causes.push(fieldCause('FieldValueRequired', 'spec.names.kind', 'Required value'));
  else if (!/^[A-Za-z][-A-Za-z0-9]*$/.test(names.kind) || names.kind.length > 63) {
    causes.push(fieldCause('FieldValueInvalid', 'spec.names.kind', `Invalid value: ${quote(names.kind)}: may have mixed case, but should otherwise match: [a-z]([-a-z0-9]*[a-z0-9])?`));
  }
  if (!names.listKind) causes.push(fieldCause('FieldValueRequired', 'spec.names.listKind', 'Required value'));
  else if (names.listKind === names.kind) causes.push(fieldCause('FieldValueInvalid', 'spec.names.listKind', `Invalid value: ${quote(names.listKind)}: kind and listKind may not be the same`));
  (names.shortNames ?? []).forEach((s, i) => lower(`spec.names.shortNames[${i}]`, s, true));
  (names.categories ?? []).forEach((s, i) => lower(`spec.names.categories[${i}]`, s, true));
  return causes;
}

function validateSchema(v: CustomResourceDefinitionVersion, i: number): StatusCause[] {
  const path = `spec.versions[${i}].schema.openAPIV3Schema`;
  const s = v.schema?.openAPIV3Schema as JSONSchemaProps | undefined;
  if (!s) return [fieldCause('FieldValueRequired', path, 'Required value: schemas are required')];
  const causes: StatusCause[] = [];
  if (s.type !== 'object') causes.push(fieldCause(s.type ? 'FieldValueInvalid' : 'FieldValueRequired', `${path}.type`, s.type ? `Invalid value: ${quote(s.type)}: must be object at the root` : 'Required value: must not be empty at the root'));
  causes.push(...ruleCompileErrors(s, path));
  const sc = v.subresources?.scale;
  if (sc) {
    const base = `spec.versions[${i}].subresources.scale`;
    if (!/^\.spec\./.test(sc.specReplicasPath ?? '')) causes.push(fieldCause('FieldValueInvalid', `${base}.specReplicasPath`, `Invalid value: ${quote(sc.specReplicasPath)}: should be a json path under .spec`));
    if (!/^\.status\./.test(sc.statusReplicasPath ?? '')) causes.push(fieldCause('FieldValueInvalid', `${base}.statusReplicasPath`, `Invalid value: ${quote(sc.statusReplicasPath)}: should be a json path under .status`));
    if (sc.labelSelectorPath && !/^\.(spec|status)\./.test(sc.labelSelectorPath)) causes.push(fieldCause('FieldValueInvalid', `${base}.labelSelectorPath`, `Invalid value: ${quote(sc.labelSelectorPath)}: should be a json path under either .spec or .status`));
  }
  return causes;
}

export function validateCrd(crd: CustomResourceDefinition): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = crd.spec ?? ({} as CustomResourceDefinition['spec']);
  const name = crd.metadata?.name ?? '';
  if (spec.names?.plural && spec.group && name !== `${spec.names.plural}.${spec.group}`) {
    causes.push(fieldCause('FieldValueInvalid', 'metadata.name', `Invalid value: ${quote(name)}: must be spec.names.plural+"."+spec.group`));
  }
  if (!spec.group) causes.push(fieldCause('FieldValueRequired', 'spec.group', 'Required value'));
  else {
    const errs = isDNS1123Subdomain(spec.group);
    if (errs.length) causes.push(fieldCause('FieldValueInvalid', 'spec.group', `Invalid value: ${quote(spec.group)}: ${errs.join(', ')}`));
    else if (spec.group.split('.').length < 2) causes.push(fieldCause('FieldValueInvalid', 'spec.group', `Invalid value: ${quote(spec.group)}: should be a domain with at least one dot`));
  }
  if (!spec.scope) causes.push(fieldCause('FieldValueRequired', 'spec.scope', 'Required value'));
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') causes.push(fieldCause('FieldValueNotSupported', 'spec.scope', `Unsupported value: ${quote(spec.scope)}: supported values: "Cluster", "Namespaced"`));
  causes.push(...validateNames(crd));
  const versions = spec.versions ?? [];
  if (versions.length === 0) causes.push(fieldCause('FieldValueRequired', 'spec.versions', 'Required value: must have exactly one version marked as storage version'));
  else {
    const storage = versions.filter((v) => v.storage).length;
    if (storage !== 1) causes.push(fieldCause('FieldValueInvalid', 'spec.versions', `Invalid value: ${quote(versions)}: must have exactly one version marked as storage version`));
    if (!versions.some((v) => v.served)) causes.push(fieldCause('FieldValueInvalid', 'spec.versions', `Invalid value: ${quote(versions)}: must have at least one version marked as served`));
    const seen = new Set<string>();
    versions.forEach((v, i) => {
      if (!v.name) causes.push(fieldCause('FieldValueRequired', `spec.versions[${i}].name`, 'Required value'));
      else {
        const errs = isDNS1035Label(v.name);
        if (errs.length) causes.push(fieldCause('FieldValueInvalid', `spec.versions[${i}].name`, `Invalid value: ${quote(v.name)}: ${errs.join(', ')}`));
        if (seen.has(v.name)) causes.push(fieldCause('FieldValueInvalid', `spec.versions[${i}].name`, `Invalid value: ${quote(v.name)}: must be unique`));
        seen.add(v.name);
      }
      causes.push(...validateSchema(v, i));
    });
  }
  const conv = spec.conversion;
  if (conv) {
    if (conv.strategy !== 'None' && conv.strategy !== 'Webhook') {
      causes.push(fieldCause('FieldValueNotSupported', 'spec.conversion.strategy', `Unsupported value: ${quote(conv.strategy)}: supported values: "None", "Webhook"`));
    } else if (conv.strategy === 'Webhook') {
      const cc = conv.webhook?.clientConfig;
      if (!conv.webhook) causes.push(fieldCause('FieldValueRequired', 'spec.conversion.webhook', 'Required value'));
      else if (!cc) causes.push(fieldCause('FieldValueRequired', 'spec.conversion.webhook.clientConfig', 'Required value'));
      else if (Boolean(cc.url) === Boolean(cc.service)) causes.push(fieldCause('FieldValueRequired', 'spec.conversion.webhook.clientConfig', 'Required value: exactly one of url or service is required'));
      const reviews = conv.webhook?.conversionReviewVersions ?? [];
      if (conv.webhook && !reviews.some((r) => r === 'v1' || r === 'v1beta1')) {
        causes.push(fieldCause('FieldValueInvalid', 'spec.conversion.webhook.conversionReviewVersions', `Invalid value: ${quote(reviews)}: must include at least one of v1, v1beta1`));
      }
    } else if (conv.webhook) {
      causes.push(fieldCause('FieldValueForbidden', 'spec.conversion.webhook', 'Forbidden: should not be set when strategy is not set to Webhook'));
    }
  }
  return causes;
}

/** The storage version joins status.storedVersions (upstream: PrepareForCreate/PrepareForUpdate). */
function recordStorageVersion(crd: KubeObject): void {
  const storage = (crd.spec?.versions as CustomResourceDefinitionVersion[] | undefined)?.find((v) => v.storage)?.name;
  if (!storage) return;
  const status = (crd.status ??= {});
  const stored: string[] = Array.isArray(status.storedVersions) ? status.storedVersions : [];
  if (!stored.includes(storage)) status.storedVersions = [...stored, storage];
}

export const crdStrategy: Strategy = {
  generation: true,
  prepareForCreate: (obj) => {
    obj.status = {};
    recordStorageVersion(obj);
  },
  prepareForUpdate: (obj) => recordStorageVersion(obj),
  validate: (obj) => validateCrd(obj as CustomResourceDefinition),
  validateUpdate: (obj, old) => {
    const causes: StatusCause[] = [];
    if (old.spec?.scope && obj.spec?.scope !== old.spec.scope) causes.push(fieldCause('FieldValueInvalid', 'spec.scope', `Invalid value: ${quote(obj.spec?.scope)}: field is immutable`));
    if (old.spec?.group && obj.spec?.group !== old.spec.group) causes.push(fieldCause('FieldValueInvalid', 'spec.group', `Invalid value: ${quote(obj.spec?.group)}: field is immutable`));
    return causes;
  },
  validateSubresource: (obj) => {
    const stored: string[] = obj.status?.storedVersions ?? [];
    const storage = (obj.spec?.versions as CustomResourceDefinitionVersion[] | undefined)?.find((v) => v.storage)?.name;
    if (storage && stored.length && !stored.includes(storage)) {
      return [fieldCause('FieldValueInvalid', 'status.storedVersions', `Invalid value: ${quote(stored)}: must have the storage version ${storage}`)];
    }
    return [];
  },
  // Upstream's REST.Delete: the first delete marks the CRD, adds the cleanup finalizer and Terminating.
  beforeDelete: (obj, ctx) => {
    if (obj.metadata?.deletionTimestamp) return undefined;
    const finalizers = [...(obj.metadata?.finalizers ?? [])];
    if (!finalizers.includes(CLEANUP_FINALIZER)) finalizers.push(CLEANUP_FINALIZER);
    const conditions: CustomResourceDefinitionCondition[] = (obj.status?.conditions ?? []).filter((c: CustomResourceDefinitionCondition) => c.type !== 'Terminating');
    conditions.push({ type: 'Terminating', status: 'True', lastTransitionTime: rfc3339(ctx.now), reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' });
    return {
      ...obj,
      metadata: { ...obj.metadata, deletionTimestamp: rfc3339(ctx.now), deletionGracePeriodSeconds: 0, finalizers },
      status: { ...obj.status, conditions },
    };
  },
};
