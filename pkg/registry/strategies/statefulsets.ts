// StatefulSets: upstream's ValidateStatefulSetSpec and ValidateStatefulSetUpdate (pkg/apis/apps/validation) around
// the pod spec: pod management and update strategy, the PVC retention policy, counts not negative, the selector and
// the template it must select, pods restarted Always; an update may change only replicas, ordinals, template,
// updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import type { Strategy } from '../strategy.js';
import { goLabelSelector, goPointer, goQuote, goStruct, invalidRendered } from '../validation/go-values.js';
import { nonNegative } from '../validation/numbers.js';
import { validateAlwaysRestart, validatePodTemplateMeta } from '../validation/pod-template.js';
import { checkSelector, selectorCauses, templateMatchCauses } from './workloads.js';
import { asObj, list } from '../validation/field-checks.js';
import { podTemplateWarnings, pvcSpecWarnings } from './pod-warnings.js';
import { generationChanged } from './workload-warnings.js';
import { dropGatedFields } from './gated-fields.js';

type Obj = Record<string, any>;


const goRollingUpdate = (ru: Obj): string => goStruct('apps.RollingUpdateStatefulSetStrategy', [
  ['Partition', String(typeof ru.partition === 'number' ? ru.partition : 0)],
  ['MaxUnavailable', goPointer('intstr.IntOrString', ru.maxUnavailable !== undefined && ru.maxUnavailable !== null)],
]);

function validateUpdateStrategy(strategy: Obj): StatusCause[] {
  const path = 'spec.updateStrategy';
  const ru = asObj(strategy.rollingUpdate);
  switch (strategy.type ?? '') {
    case '':
      return [required(path)];
    case 'OnDelete':
      return ru ? [invalidRendered(`${path}.rollingUpdate`, goRollingUpdate(ru), "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      // maxUnavailable is dropped before (MAX_UNAVAILABLE) unless the stored StatefulSet has it: not checked
      return ru ? nonNegative(ru.partition, `${path}.rollingUpdate.partition`) : [];
    default: {
      const rendered = goStruct('apps.StatefulSetUpdateStrategy', [
        ['Type', goQuote(String(strategy.type))], ['RollingUpdate', goPointer('apps.RollingUpdateStatefulSetStrategy', ru !== undefined)],
      ]);
      return [invalidRendered(path, rendered, "must be 'RollingUpdate' or 'OnDelete'")];
    }
  }
}

const RETENTION = ['Retain', 'Delete'];

function validateRetentionPolicy(policy: Obj | undefined): StatusCause[] {
  if (!policy) return [];
  const path = 'spec.persistentVolumeClaimRetentionPolicy';
  const causes: StatusCause[] = [];
  for (const f of ['whenDeleted', 'whenScaled']) {
    const v = policy[f] ?? '';
    if (!RETENTION.includes(v)) causes.push(notSupported(`${path}.${f}`, v, RETENTION));
  }
  return causes;
}

export function validateStatefulSetSpec(obj: KubeObject): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const causes: StatusCause[] = [];
  const policy = spec.podManagementPolicy ?? '';
  if (policy === '') causes.push(required('spec.podManagementPolicy'));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') {
    causes.push(invalidValue('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  }
  causes.push(
    ...validateUpdateStrategy(asObj(spec.updateStrategy) ?? {}),
    ...validateRetentionPolicy(asObj(spec.persistentVolumeClaimRetentionPolicy)),
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
  );
  const ordinals = asObj(spec.ordinals);
  if (ordinals) causes.push(...nonNegative(ordinals.start, 'spec.ordinals.start'));
  const checked = checkSelector(obj, 'StatefulSet');
  causes.push(...selectorCauses(checked));
  const template = asObj(spec.template);
  if (checked.invalid) causes.push(invalidRendered('spec.selector', goLabelSelector(spec.selector), ''));
  else causes.push(...templateMatchCauses(checked.selector, template), ...validatePodTemplateMeta(template, 'spec.template'));
  causes.push(...validateAlwaysRestart(template, 'spec.template', 'StatefulSet'));
  return causes;
}

/** The fields of the spec an update may change. */
const MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

const withoutMutable = (spec: unknown): Obj => {
  const rest: Obj = { ...(asObj(spec) ?? {}) };
  for (const f of MUTABLE) delete rest[f];
  return rest;
};

export function validateStatefulSetUpdate(obj: KubeObject, old: KubeObject): StatusCause[] {
  if (jsonEqual(withoutMutable(obj.spec), withoutMutable(old.spec))) return [];
  return [forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")];
}

/** The claim templates' fractional storage, at `spec.volumeClaimTemplates[i]` + `field` (upstream names it two ways). */
const claimTemplateWarnings = (obj: KubeObject, field: string): string[] =>
  list(obj.spec?.volumeClaimTemplates).flatMap((t, i) => pvcSpecWarnings(asObj(t)?.spec, `spec.volumeClaimTemplates[${i}]${field}`));

/**
 * upstream's dropStatefulSetDisabledFields: updateStrategy.rollingUpdate.maxUnavailable belongs to the
 * MaxUnavailableStatefulSet alpha (off in 1.32), dropped unless the gate is on or the stored StatefulSet has it.
 */
const MAX_UNAVAILABLE = [['spec', 'updateStrategy', 'rollingUpdate', 'maxUnavailable']] as const;

/** With the MaxUnavailableStatefulSet gate on (the apiserver's --feature-gates), maxUnavailable is kept as sent. */
export const statefulSetStrategyWithMaxUnavailable: Strategy = {
  validate: validateStatefulSetSpec,
  validateUpdate: validateStatefulSetUpdate,
  // unlike the other workloads', no warning of a name that is no DNS label (upstream's)
  warningsOnCreate: (obj) => [...podTemplateWarnings(obj.spec?.template, 'spec.template'), ...claimTemplateWarnings(obj, '')],
  warningsOnUpdate: (obj, old) => [
    ...(generationChanged(obj, old) ? podTemplateWarnings(obj.spec?.template, 'spec.template') : []),
    ...claimTemplateWarnings(obj, '.Spec'),
  ],
};

export const statefulSetStrategy: Strategy = {
  ...statefulSetStrategyWithMaxUnavailable,
  prepareForCreate: (obj) => dropGatedFields(obj, undefined, MAX_UNAVAILABLE),
  prepareForUpdate: (obj, old) => dropGatedFields(obj, old, MAX_UNAVAILABLE),
};
