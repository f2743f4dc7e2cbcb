// ReplicationControllers: upstream's ValidateReplicationControllerSpec (pkg/apis/core/validation) around the pod
// spec: counts not negative, a non-empty selector (a plain label map) that selects the template, pods restarted
// Always.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { required } from '../../apimachinery/field.js';
import { selectorFromSet } from '../../apimachinery/labels.js';
import type { Strategy } from '../strategy.js';
import { nonNegative } from '../validation/numbers.js';
import { validateAlwaysRestart, validatePodTemplateMeta } from '../validation/pod-template.js';
import { podTemplateWarnings } from './pod-warnings.js';
import { generationChanged, replicatedWarnings } from './workload-warnings.js';
import { templateMatchCauses } from './workloads.js';
import { asObj } from '../validation/field-checks.js';

type Obj = Record<string, any>;


export function validateReplicationControllerSpec(obj: KubeObject): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const selector = asObj(spec.selector) as Record<string, string> | undefined;
  const causes = nonNegative(spec.minReadySeconds, 'spec.minReadySeconds');
  if (!selector || Object.keys(selector).length === 0) causes.push(required('spec.selector'));
  causes.push(...nonNegative(spec.replicas, 'spec.replicas'));
  const template = asObj(spec.template);
  if (!template) {
    causes.push(required('spec.template'));
    return causes;
  }
  let parsed;
  try {
    parsed = selector ? selectorFromSet(selector) : undefined;
  } catch {
    parsed = undefined; // a bad label is the metadata checks' to report
  }
  causes.push(
    ...templateMatchCauses(parsed, template),
    ...validatePodTemplateMeta(template, 'spec.template'),
    ...validateAlwaysRestart(template, 'spec.template', 'ReplicationController'),
  );
  return causes;
}

export const replicationControllerStrategy: Strategy = {
  // v1 keeps a controller's pods unless told otherwise, without a warning
  defaultGarbageCollectionPolicy: 'Orphan',
  validate: validateReplicationControllerSpec,
  warningsOnCreate: replicatedWarnings.warningsOnCreate,
  // upstream passes the templates the wrong way round here: an update is warned of what the stored template has
  warningsOnUpdate: (obj, old) => (generationChanged(obj, old) ? podTemplateWarnings(old.spec?.template, 'spec.template') : []),
};
