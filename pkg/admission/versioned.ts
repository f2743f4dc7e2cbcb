// A request as another version of its resource serves it (upstream's VersionedAttributes): what a webhook or a policy
// matched through matchPolicy Equivalent sees, its objects converted to the version its rule names.
import type { ResourceType } from '../../api/types.js';
import { internalError } from '../apimachinery/errors.js';
import type { AdmissionDeps } from './deps.js';
import type { AdmissionAttributes } from './interface.js';
import { requestKind } from './webhook/review.js';

export async function versioned(a: AdmissionAttributes, rt: ResourceType, deps: AdmissionDeps): Promise<AdmissionAttributes> {
  if (rt === a.resource) return a;
  const as: AdmissionAttributes = { ...a, resource: rt };
  const from = requestKind(a);
  const to = requestKind(as);
  if (from.group === to.group && from.version === to.version && from.kind === to.kind) return as; // a Scale is a Scale
  try {
    if (a.object) as.object = await deps.convert(a.object, a.resource, rt);
    if (a.oldObject) as.oldObject = await deps.convert(a.oldObject, a.resource, rt);
  } catch (err) {
    throw internalError(`failed to convert to ${rt.group ? `${rt.group}/` : ''}${rt.version} ${rt.plural}: ${(err as Error).message}`);
  }
  return as;
}
