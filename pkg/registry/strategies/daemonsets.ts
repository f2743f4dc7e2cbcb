// DaemonSets: upstream's ValidateDaemonSetSpec (pkg/apis/apps/validation) around the pod spec: the selector and the
// template it must select, pods restarted Always, the update strategy and its int-or-percent parameters.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { required } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';
import { goIntOrString, goPointer, goQuote, goStruct, invalidRendered, notSupportedRendered } from '../validation/go-values.js';
import { intOrPercentValue, notMoreThan100Percent, validatePositiveIntOrPercent } from '../validation/int-or-percent.js';
import { nonNegative } from '../validation/numbers.js';
import { validateAlwaysRestart, validatePodTemplateMeta } from '../validation/pod-template.js';
import { checkSelector, immutableSelector, templateMatchCauses } from './workloads.js';
import { asObj } from '../validation/field-checks.js';
import { badRequest } from '../../apimachinery/errors.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { podTemplateWarnings } from './pod-warnings.js';

type Obj = Record<string, any>;


function validateUpdateStrategy(strategy: Obj): StatusCause[] {
  const path = 'spec.updateStrategy';
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      const ru = asObj(strategy.rollingUpdate);
      if (!ru) return [required(`${path}.rollingUpdate`)];
      const ruPath = `${path}.rollingUpdate`;
      const causes = [
        ...validatePositiveIntOrPercent(ru.maxUnavailable, `${ruPath}.maxUnavailable`),
        ...validatePositiveIntOrPercent(ru.maxSurge, `${ruPath}.maxSurge`),
        ...notMoreThan100Percent(ru.maxUnavailable, `${ruPath}.maxUnavailable`),
        ...notMoreThan100Percent(ru.maxSurge, `${ruPath}.maxSurge`),
      ];
      const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) {
        causes.push(invalidRendered(`${ruPath}.maxSurge`, goIntOrString(ru.maxSurge), 'may not be set when maxUnavailable is non-zero'));
      } else if (!hasUnavailable && !hasSurge) {
        causes.push(required(`${ruPath}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      }
      return causes;
    }
    default: {
      const rendered = goStruct('apps.DaemonSetUpdateStrategy', [
        ['Type', goQuote(String(strategy.type ?? ''))], ['RollingUpdate', goPointer('apps.RollingUpdateDaemonSet', asObj(strategy.rollingUpdate) !== undefined)],
      ]);
      return [notSupportedRendered(path, rendered, ['RollingUpdate', 'OnDelete'])];
    }
  }
}

export function validateDaemonSetSpec(obj: KubeObject): StatusCause[] {
  const spec = asObj(obj.spec) ?? {};
  const template = asObj(spec.template);
  const checked = checkSelector(obj, 'DaemonSet');
  // upstream reports the empty selector after the template match, which an empty selector passes
  return [
    ...checked.causes,
    ...templateMatchCauses(checked.selector, template),
    ...(checked.empty ? [checked.empty] : []),
    ...validatePodTemplateMeta(template, 'spec.template'),
    ...validateAlwaysRestart(template, 'spec.template', 'DaemonSet'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateUpdateStrategy(asObj(spec.updateStrategy) ?? {}),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  ];
}

/**
 * Upstream's internal spec.templateGeneration, which apps/v1 shows as this annotation: the conversion reads the
 * sent value (which must be an int64) and always writes the stored one back.
 */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';

/**
 * The annotation as the v1 conversion parses it (Go's strconv.ParseInt, base 10, 64 bits), a bad one failing the
 * decoding of the request; 0 when absent.
 */
function templateGeneration(obj: KubeObject): bigint {
  const value = obj.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  if (value === undefined) return 0n;
  const fail = (why: string): never => {
    throw badRequest(`DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing ${goQuote(value)}: ${why}`);
  };
  if (!/^[+-]?\d+$/.test(value)) fail('invalid syntax');
  const n = BigInt(value);
  if (n > 0x7fffffffffffffffn || n < -0x8000000000000000n) fail('value out of range');
  return n;
}

const setTemplateGeneration = (obj: KubeObject, generation: bigint): void => {
  const meta = (obj.metadata ??= {});
  meta.annotations = { ...meta.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
};

export const daemonSetStrategy: Strategy = {
  validate: validateDaemonSetSpec,
  validateUpdate: immutableSelector,
  // its pod template, again on an update that changed it (the template generation); no name warning, as upstream
  warningsOnCreate: (obj) => podTemplateWarnings(obj.spec?.template, 'spec.template'),
  warningsOnUpdate: (obj, old) => (templateGeneration(obj) !== templateGeneration(old) ? podTemplateWarnings(obj.spec?.template, 'spec.template') : []),
  // at create the sent generation stands, if at least 1
  prepareForCreate: (obj) => {
    const sent = templateGeneration(obj);
    setTemplateGeneration(obj, sent < 1n ? 1n : sent);
  },
  // an update may not set it: the stored one, one more when the template changed
  prepareForUpdate: (obj, old) => {
    templateGeneration(obj);
    const stored = templateGeneration(old);
    setTemplateGeneration(obj, jsonEqual(obj.spec?.template ?? null, old.spec?.template ?? null) ? stored : stored + 1n);
  },
  // it is part of the spec, which a status update leaves as stored
  prepareForStatusUpdate: (obj, old) => {
    templateGeneration(obj);
    setTemplateGeneration(obj, templateGeneration(old));
  },
};
