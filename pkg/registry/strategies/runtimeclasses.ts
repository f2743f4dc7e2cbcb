// RuntimeClasses (upstream: pkg/apis/node/validation): the handler is a DNS label and never changes; the overhead
// is of named resources and not negative; the node selector is of valid labels.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue } from '../../apimachinery/field.js';
import { isDNS1123Label, isQualifiedName } from '../../apimachinery/names.js';
import { validateLabels } from '../../apimachinery/objectmeta.js';
import { parseQuantity } from '../../apimachinery/quantity.js';
import type { Strategy } from '../strategy.js';

function validateRuntimeClass(rc: KubeObject): StatusCause[] {
  const causes: StatusCause[] = isDNS1123Label(String(rc.handler ?? '')).map((msg) => invalidValue('handler', rc.handler ?? '', msg));
  for (const [name, value] of Object.entries((rc.overhead?.podFixed ?? {}) as Record<string, string>)) {
    const field = `overhead.podFixed[${name}]`;
    for (const msg of isQualifiedName(name)) causes.push(invalidValue(field, name, msg));
    let negative = false;
    try { negative = parseQuantity(String(value)).nanos < 0n; } catch { /* the type check refuses what is no quantity */ }
    if (negative) causes.push(invalidValue(field, String(value), 'must be greater than or equal to 0'));
  }
  causes.push(...validateLabels(rc.scheduling?.nodeSelector as Record<string, string> | undefined, 'scheduling.nodeSelector'));
  return causes;
}

export const runtimeClassStrategy: Strategy = {
  validate: (rc) => validateRuntimeClass(rc),
  validateUpdate: (rc, old) => (rc.handler === old.handler ? [] : [invalidValue('handler', rc.handler, 'field is immutable')]),
};
