// Deployments: upstream's ValidateDeploymentSpec (pkg/apis/apps/validation) around the pod spec, which
// pod-spec-kinds.ts checks: replicas, the selector and the template it must select, a template whose pods restart
// Always, the rollout strategy and its int-or-percent parameters, and the timing fields.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, required } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';
import { goIntOrString, goLabelSelector, goPointer, goQuote, goStruct, invalidRendered, notSupportedRendered } from '../validation/go-values.js';
import { intOrPercentValue, notMoreThan100Percent, validatePositiveIntOrPercent } from '../validation/int-or-percent.js';
import { nonNegative } from '../validation/numbers.js';
import { validateAlwaysRestart, validatePodTemplateMeta } from '../validation/pod-template.js';
import { replicatedWarnings } from './workload-warnings.js';
import { checkSelector, immutableSelector, selectorCauses, templateMatchCauses } from './workloads.js';
import { asObj } from '../validation/field-checks.js';

type Obj = Record<string, any>;


/**
 * A ReplicaSet's (and a Deployment's) template, when the selector parsed: it must be selected, its metadata valid,
 * its pods restarted Always (upstream's ValidatePodTemplateSpecForReplicaSet; its messages say ReplicaSet for both).
 */
export function validateReplicaSetTemplate(obj: KubeObject): StatusCause[] {
  const checked = checkSelector(obj);
  const causes = selectorCauses(checked);
  if (checked.invalid) {
    causes.push(invalidRendered('spec.selector', goSelectorOf(obj), 'invalid label selector'));
    return causes;
  }
  const template = asObj(obj.spec?.template);
  causes.push(
    ...templateMatchCauses(checked.selector, template),
    ...validatePodTemplateMeta(template, 'spec.template'),
    ...validateAlwaysRestart(template, 'spec.template', 'ReplicaSet'),
  );
  return causes;
}


const goSelectorOf = (obj: KubeObject): string => goLabelSelector(obj.spec?.selector);

const goRollingUpdate = (strategy: Obj): string =>
  goStruct('apps.DeploymentStrategy', [['Type', goQuote(String(strategy.type ?? ''))], ['RollingUpdate', goPointer('apps.RollingUpdateDeployment', asObj(strategy.rollingUpdate) !== undefined)]]);

function validateStrategy(strategy: Obj): StatusCause[] {
  const path = 'spec.strategy';
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate != null ? [forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const ru = asObj(strategy.rollingUpdate);
      if (!ru) return [required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
      const ruPath = `${path}.rollingUpdate`;
      const causes = [
        ...validatePositiveIntOrPercent(ru.maxUnavailable, `${ruPath}.maxUnavailable`),
        ...validatePositiveIntOrPercent(ru.maxSurge, `${ruPath}.maxSurge`),
      ];
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        causes.push(invalidRendered(`${ruPath}.maxUnavailable`, goIntOrStringOrZero(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      causes.push(...notMoreThan100Percent(ru.maxUnavailable, `${ruPath}.maxUnavailable`));
      return causes;
    }
    default:
      return [notSupportedRendered(path, goRollingUpdate(strategy), ['Recreate', 'RollingUpdate'])];
  }
}


const goIntOrStringOrZero = (v: unknown): string => goIntOrString(v ?? 0);

export function validateDeploymentSpec(obj: KubeObject): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const causes = [...nonNegative(spec.replicas, 'spec.replicas'), ...validateReplicaSetTemplate(obj)];
  causes.push(
    ...validateStrategy(asObj(spec.strategy) ?? {}),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  );
  if (typeof spec.progressDeadlineSeconds === 'number') {
    causes.push(...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= (typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0)) {
      causes.push(invalidValue('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return causes;
}

/** Updates validate the new spec the same way (upstream's ValidateDeploymentUpdate has no immutable fields). */
export const deploymentStrategy: Strategy = { validate: validateDeploymentSpec, validateUpdate: immutableSelector, ...replicatedWarnings };
