// Tolerations as upstream's ValidateTolerations checks them: a key that is a label name (empty only with operator
// Exists, which then matches every taint), Equal's value a label value and Exists' empty, tolerationSeconds only
// for NoExecute, and a known effect (empty matches every effect).
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, notSupported } from '../../apimachinery/field.js';
import { isValidLabelValue } from '../../apimachinery/names.js';
import { validateLabelName } from '../../apimachinery/objectmeta.js';
import { isObj, list, str } from './field-checks.js';

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

export function validateTolerations(tolerations: unknown, path: string, causes: StatusCause[]): void {
  const all = list(tolerations);
  for (let i = 0; i < all.length; i++) {
    const t = all[i];
    if (!isObj(t)) continue;
    const at = `${path}[${i}]`;
    const key = str(t.key);
    const operator = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key) causes.push(...validateLabelName(key, `${at}.key`));
    if (!key && operator !== 'Exists') {
      causes.push(invalidValue(`${at}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      causes.push(invalidValue(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (operator) {
      case 'Equal': case '': {
        const errs = isValidLabelValue(value);
        if (errs.length) causes.push(invalidValue(`${at}.operator`, value, errs.join(';')));
        break;
      }
      case 'Exists':
        if (value) causes.push(invalidValue(`${at}.operator`, value, "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        causes.push(notSupported(`${at}.operator`, operator, ['Equal', 'Exists']));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) causes.push(notSupported(`${at}.effect`, effect, TAINT_EFFECTS));
  }
}
