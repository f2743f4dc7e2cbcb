// APIServices (upstream: kube-aggregator pkg/registry/apiservice and pkg/apis/apiregistration/validation):
// the name is version.group ("v1." for the core group), priorities bounded, local ones carry no TLS settings.
import type { APIService } from '../../../api/apiregistration/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { fieldCause, type StatusCause } from '../../apimachinery/errors.js';
import { isDNS1035Label, isDNS1123Subdomain, nameIsPathSegment } from '../../apimachinery/names.js';
import { RESET_OBJECT_META_FOR_STATUS, type Strategy } from '../strategy.js';

const quote = (v: unknown): string => JSON.stringify(v ?? '');

export function validateApiService(obj: KubeObject): StatusCause[] {
  const a = obj as APIService;
  const spec = a.spec ?? ({} as APIService['spec']);
  const group = spec.group ?? '';
  const version = spec.version ?? '';
  const causes: StatusCause[] = [];
  const required = `${version}.${group}`;
  const name = a.metadata?.name ?? '';
  if (name && nameIsPathSegment(name, false).length === 0 && name !== required) {
    causes.push(fieldCause('FieldValueInvalid', 'metadata.name', `Invalid value: ${quote(name)}: must be \`spec.version+"."+spec.group\`: ${quote(required)}`));
  }
  if (!group && version !== 'v1') causes.push(fieldCause('FieldValueRequired', 'spec.group', 'Required value: only v1 may have an empty group and it better be legacy kube'));
  if (group) for (const e of isDNS1123Subdomain(group)) causes.push(fieldCause('FieldValueInvalid', 'spec.group', `Invalid value: ${quote(group)}: ${e}`));
  for (const e of isDNS1035Label(version)) causes.push(fieldCause('FieldValueInvalid', 'spec.version', `Invalid value: ${quote(version)}: ${e}`));
  const gpm = spec.groupPriorityMinimum ?? 0;
  if (gpm <= 0 || gpm > 20000) causes.push(fieldCause('FieldValueInvalid', 'spec.groupPriorityMinimum', `Invalid value: ${gpm}: must be positive and less than 20000`));
  const vp = spec.versionPriority ?? 0;
  if (vp <= 0 || vp > 1000) causes.push(fieldCause('FieldValueInvalid', 'spec.versionPriority', `Invalid value: ${vp}: must be positive and less than 1000`));
  const caBytes = spec.caBundle ? Buffer.from(spec.caBundle, 'base64').length : 0;
  if (!spec.service) {
    if (caBytes) causes.push(fieldCause('FieldValueInvalid', 'spec.caBundle', `Invalid value: "${caBytes} bytes": local APIServices may not have a caBundle`));
    if (spec.insecureSkipTLSVerify) causes.push(fieldCause('FieldValueInvalid', 'spec.insecureSkipTLSVerify', 'Invalid value: true: local APIServices may not have insecureSkipTLSVerify'));
    return causes;
  }
  if (!spec.service.namespace) causes.push(fieldCause('FieldValueRequired', 'spec.service.namespace', 'Required value'));
  if (!spec.service.name) causes.push(fieldCause('FieldValueRequired', 'spec.service.name', 'Required value'));
  if (spec.insecureSkipTLSVerify && caBytes) causes.push(fieldCause('FieldValueInvalid', 'spec.insecureSkipTLSVerify', 'Invalid value: true: may not be true if caBundle is present'));
  return causes;
}

export const apiServiceStrategy: Strategy = {
  statusKeepsMetadata: RESET_OBJECT_META_FOR_STATUS,
  // "v1." names the core group: a path segment, not a DNS subdomain.
  nameFn: nameIsPathSegment,
  validate: (obj) => validateApiService(obj),
};
