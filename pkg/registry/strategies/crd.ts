// CustomResourceDefinitions (upstream: apiextensions-apiserver pkg/registry/customresourcedefinition): validated
// as upstream's apiextensions validation (customresources/definition), ratcheting on update; storedVersions
// kept; deletion marks the CRD with the customresourcecleanup finalizer and Terminating, and the CRD controller
// removes the custom resources before letting it go.
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionVersion } from '../../../api/apiextensions/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { validateCustomResourceDefinition, validateCustomResourceDefinitionUpdate, validateNames } from '../customresources/definition/validate.js';
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';

export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** The storage version joins status.storedVersions (upstream: PrepareForCreate/PrepareForUpdate). */
function recordStorageVersion(crd: KubeObject): void {
  const storage = (crd.spec?.versions as CustomResourceDefinitionVersion[] | undefined)?.find((v) => v.storage)?.name;
  if (!storage) return;
  const stored: string[] = Array.isArray(crd.status?.storedVersions) ? crd.status.storedVersions : [];
  if (!stored.includes(storage)) crd.status = { ...crd.status, storedVersions: [...stored, storage] };
}

export const crdStrategy: Strategy = {
  allowUnconditionalUpdate: false,
  generation: true,
  prepareForCreate: (obj) => {
    // Upstream's status fields have no omitempty: a new CRD's status reads as Go writes its zero value, until the
    // controller fills it (conditions null, acceptedNames with its plural and kind empty).
    obj.status = { conditions: null, acceptedNames: { plural: '', kind: '' } };
    recordStorageVersion(obj);
  },
  prepareForUpdate: (obj) => recordStorageVersion(obj),
  validate: (obj) => validateCustomResourceDefinition(obj as CustomResourceDefinition),
  updateValidationIsComplete: true,
  validateUpdate: (obj, old) => validateCustomResourceDefinitionUpdate(obj as CustomResourceDefinition, old as CustomResourceDefinition),
  // Upstream's status strategy: only the accepted names are checked.
  validateSubresource: (obj) => validateNames(obj.status?.acceptedNames, 'status.acceptedNames'),
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
