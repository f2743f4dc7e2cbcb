// AlwaysAdmit and AlwaysDeny (upstream: plugin/pkg/admission/admit, .../deny), deprecated there, kept for tests.
import { forbidden } from '../apimachinery/errors.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './interface.js';

export class AlwaysAdmit implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'AlwaysAdmit';
  readonly handlesConnect = true;
  admit(): void {}
  validate(): void {}
}

export class AlwaysDeny implements MutatingPlugin, ValidatingPlugin {
  readonly name = 'AlwaysDeny';
  readonly handlesConnect = true;
  admit(a: AdmissionAttributes): void {
    deny(a);
  }
  validate(a: AdmissionAttributes): void {
    deny(a);
  }
}

function deny(a: AdmissionAttributes): never {
  // admission.NewForbidden with the plugin's error.
  const gr = a.resource.group ? `${a.resource.plural}.${a.resource.group}` : a.resource.plural;
  const name = a.name || a.object?.metadata?.name || '';
  throw forbidden(`${gr}${name ? ` "${name}"` : ''} is forbidden: admission control is denying all modifications`, { name: name || undefined, group: a.resource.group || undefined, kind: a.resource.plural });
}
