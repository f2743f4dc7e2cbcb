// AlwaysPullImages: every container of a new pod (or of a pod update that brings a new image)
// pulls its image always, so a node's cached image cannot be used without the credentials to pull
// it (upstream: plugin/pkg/admission/alwayspullimages).
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';
import { admissionForbidden } from './errors.js';
import { containersWithPath, isPodCreateOrUpdate } from './pod-helpers.js';

export class AlwaysPullImages implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'AlwaysPullImages';

  admit(a: AdmissionAttributes): void {
    if (ignore(a)) return;
    for (const { c } of containersWithPath(a.object!.spec)) c.imagePullPolicy = 'Always';
  }

  validate(a: AdmissionAttributes): void {
    if (ignore(a)) return;
    for (const { c, path } of containersWithPath(a.object!.spec)) {
      if (c.imagePullPolicy !== 'Always') {
        throw admissionForbidden(a, `${path}.imagePullPolicy: Unsupported value: ${JSON.stringify(c.imagePullPolicy ?? '')}: supported values: "Always"`);
      }
    }
  }
}

function ignore(a: AdmissionAttributes): boolean {
  if (!isPodCreateOrUpdate(a.resource, a.subresource) || !a.object) return true;
  if (a.operation === 'CREATE') return false;
  if (a.operation !== 'UPDATE') return true;
  // An update that brings no image the pod did not already have changes nothing here.
  const old = new Set(containersWithPath(a.oldObject?.spec).map(({ c }) => c.image));
  return containersWithPath(a.object.spec).every(({ c }) => old.has(c.image));
}
