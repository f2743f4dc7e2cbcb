// PodTemplates: what they add to the pod spec checks every template gets (pod-spec-kinds.ts) are the template's
// warnings (upstream: registry/core/podtemplate/strategy.go), again on an update that changed the template.
import { jsonEqual } from '../../apimachinery/json-equal.js';
import type { Strategy } from '../strategy.js';
import { podTemplateWarnings } from './pod-warnings.js';

export const podTemplateStrategy: Strategy = {
  warningsOnCreate: (obj) => podTemplateWarnings(obj.template, 'template'),
  // upstream asks whether the generation moved, which a change of the template alone does
  warningsOnUpdate: (obj, old) => (jsonEqual(obj.template ?? null, old.template ?? null) ? [] : podTemplateWarnings(obj.template, 'template')),
};
