// Upstream's admission.NewForbidden: `<resource> "<name>" is forbidden: <why>`, the name taken from
// the object when the request has none.
import { forbidden, StatusError } from '../apimachinery/errors.js';
import type { AdmissionAttributes } from './interface.js';

export function admissionForbidden(a: AdmissionAttributes, why: string): StatusError {
  const name = a.name || a.object?.metadata?.name || a.oldObject?.metadata?.name || '';
  const gr = a.resource.group ? `${a.resource.plural}.${a.resource.group}` : a.resource.plural;
  const message = name ? `${gr} "${name}" is forbidden: ${why}` : `${gr} is forbidden: ${why}`;
  return forbidden(message, { name: name || undefined, group: a.resource.group || undefined, kind: a.resource.plural });
}

/** Upstream's utilerrors.NewAggregate wording: one error as is, several as `[a, b]`. */
export const aggregate = (errs: string[]): string => (errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);

export const isResource = (a: AdmissionAttributes, group: string, plural: string): boolean =>
  a.resource.group === group && a.resource.plural === plural;

/**
 * A plugin's plain Go error (fmt.Errorf, a decode error): not a Status, so upstream's handler answers it as a 500
 * with no reason and the error's text as the message.
 */
export const plainError = (message: string): StatusError => new StatusError(500, '', message);
