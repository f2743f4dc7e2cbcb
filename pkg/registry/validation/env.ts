// A container's environment, as upstream's ValidateEnv (with validateEnvVarValueFrom and its selectors) and
// ValidateEnvFrom check it. Names follow 1.32's default, RelaxedEnvironmentVariableValidation (beta, on).
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { invalidValue, required } from '../../apimachinery/field.js';
import { nameIsDNSSubdomain } from '../../apimachinery/names.js';
import { isConfigMapKey } from './config-key.js';
import { checkObjectFieldSelector, checkResourceFieldSelector } from './downward-api.js';
import { isObj, list, requireSchemaField, str } from './field-checks.js';
import { isSet } from './shapes.js';

/** The pod fields an environment variable may take (a label or an annotation too, by key). */
const ENV_FIELD_PATHS: ReadonlySet<string> = new Set([
  'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs',
]);

// printable ASCII (space to '~') but '='
const RELAXED_ENV_VAR_NAME = /^[\x20-\x3c\x3e-\x7e]*$/;
const RELAXED_ENV_VAR_NAME_ERROR = "a valid environment variable name must consist only of printable ASCII characters other than '='";

/**
 * IsRelaxedEnvVarName: what 1.32 checks, RelaxedEnvironmentVariableValidation being beta and on by default there
 * (the C-identifier-like IsEnvVarName is what it relaxed).
 */
const isRelaxedEnvVarName = (value: string): string[] => {
  if (value.length === 0) return ['environment variable name must be non-empty'];
  return RELAXED_ENV_VAR_NAME.test(value) ? [] : [RELAXED_ENV_VAR_NAME_ERROR];
};

/** validateConfigMapKeySelector and validateSecretKeySelector (both check the name as a Secret name). */
function validateKeySelector(s: KubeObject, path: string, out: StatusCause[]): void {
  const name = str(s.name);
  for (const m of nameIsDNSSubdomain(name, false)) out.push(invalidValue(`${path}.name`, name, m));
  const key = str(s.key);
  if (key === '') requireSchemaField(out, `${path}.key`, s.key);
  else for (const m of isConfigMapKey(key)) out.push(invalidValue(`${path}.key`, key, m));
}

function validateValueFrom(ev: KubeObject, path: string, out: StatusCause[]): void {
  const from: unknown = ev.valueFrom;
  if (!isSet(from)) return;
  const src: KubeObject = isObj(from) ? from : {};
  let sources = 0;
  if (isSet(src.fieldRef)) {
    sources++;
    if (isObj(src.fieldRef)) checkObjectFieldSelector(out, src.fieldRef, ENV_FIELD_PATHS, `${path}.fieldRef`);
  }
  if (isSet(src.resourceFieldRef)) {
    sources++;
    if (isObj(src.resourceFieldRef)) checkResourceFieldSelector(out, src.resourceFieldRef, `${path}.resourceFieldRef`, false);
  }
  if (isSet(src.configMapKeyRef)) {
    sources++;
    if (isObj(src.configMapKeyRef)) validateKeySelector(src.configMapKeyRef, `${path}.configMapKeyRef`, out);
  }
  if (isSet(src.secretKeyRef)) {
    sources++;
    if (isObj(src.secretKeyRef)) validateKeySelector(src.secretKeyRef, `${path}.secretKeyRef`, out);
  }
  if (sources === 0) out.push(invalidValue(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value) !== '') out.push(invalidValue(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) out.push(invalidValue(path, '', 'may not have more than one field specified at a time'));
}

/** `env` of a container at `path` (".../env"). */
export function validateEnv(env: unknown, path: string, out: StatusCause[]): void {
  list(env).forEach((ev, i) => {
    if (!isObj(ev)) return;
    const at = `${path}[${i}]`;
    const name = str(ev.name);
    if (name === '') requireSchemaField(out, `${at}.name`, ev.name);
    else for (const m of isRelaxedEnvVarName(name)) out.push(invalidValue(`${at}.name`, name, m));
    validateValueFrom(ev, `${at}.valueFrom`, out);
  });
}

/** A configMapRef or secretRef of envFrom: a name, which may be a prefix (upstream checks it so). */
function validateEnvSource(ref: unknown, path: string, out: StatusCause[]): void {
  const name = isObj(ref) ? str(ref.name) : '';
  if (name === '') out.push(required(`${path}.name`));
  else for (const m of nameIsDNSSubdomain(name, true)) out.push(invalidValue(`${path}.name`, name, m));
}

/** `envFrom` of a container at `path` (".../envFrom"); upstream reports a missing or double source at the list itself. */
export function validateEnvFrom(envFrom: unknown, path: string, out: StatusCause[]): void {
  list(envFrom).forEach((ev, i) => {
    if (!isObj(ev)) return;
    const at = `${path}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix.length > 0) for (const m of isRelaxedEnvVarName(prefix)) out.push(invalidValue(`${at}.prefix`, prefix, m));
    let sources = 0;
    if (isSet(ev.configMapRef)) {
      sources++;
      validateEnvSource(ev.configMapRef, `${at}.configMapRef`, out);
    }
    if (isSet(ev.secretRef)) {
      sources++;
      validateEnvSource(ev.secretRef, `${at}.secretRef`, out);
    }
    if (sources === 0) out.push(invalidValue(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) out.push(invalidValue(path, '', 'may not have more than one field specified at a time'));
  });
}
