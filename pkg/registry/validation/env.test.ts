import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateEnv, validateEnvFrom } from './env.js';

const P = 'spec.containers[0]';
const env = (vars: unknown): string[] => {
  const out: StatusCause[] = [];
  validateEnv(vars, `${P}.env`, out);
  return out.map(causeToString);
};
const envFrom = (sources: unknown): string[] => {
  const out: StatusCause[] = [];
  validateEnvFrom(sources, `${P}.envFrom`, out);
  return out.map(causeToString);
};

describe('env', () => {
  it('takes any printable ASCII name but "=" (RelaxedEnvironmentVariableValidation, on in 1.32)', () => {
    expect(env([{ name: '1 weird.name-ok!', value: 'x' }, { name: 'A=B' }, { name: 'é' }])).toEqual([
      `${P}.env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      `${P}.env[2].name: Invalid value: "é": a valid environment variable name must consist only of printable ASCII characters other than '='`,
    ]);
  });

  it('leaves a missing name to the schema check', () => {
    expect(env([{ value: 'x' }, { name: '' }])).toEqual([]);
  });

  it('wants exactly one source in valueFrom, and no value with it', () => {
    expect(env([
      { name: 'A', valueFrom: {} },
      { name: 'B', value: 'x', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      { name: 'C', valueFrom: { secretKeyRef: { name: 's', key: 'k' }, configMapKeyRef: { name: 'c', key: 'k' } } },
    ])).toEqual([
      `${P}.env[0].valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\` or \`secretKeyRef\``,
      `${P}.env[1].valueFrom: Invalid value: "": may not be specified when \`value\` is not empty`,
      `${P}.env[2].valueFrom: Invalid value: "": may not have more than one field specified at a time`,
    ]);
  });

  it('checks field and resource selectors', () => {
    expect(env([
      { name: 'A', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.phase' } } },
      { name: 'B', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nope' } } },
      { name: 'C', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: "metadata.labels['app']" } } },
      { name: 'D', valueFrom: { resourceFieldRef: { resource: 'limits.gpu' } } },
      { name: 'E', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '2' } } },
    ])).toEqual([
      `${P}.env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`,
      `${P}.env[1].valueFrom.fieldRef.fieldPath: Invalid value: "spec.nope": error converting fieldPath: field label not supported: spec.nope`,
      `${P}.env[3].valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
      `${P}.env[4].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
    ]);
  });

  it('checks key selectors as Secret names and keys', () => {
    expect(env([{ name: 'A', valueFrom: { configMapKeyRef: { name: 'Bad', key: '..k' } } }])).toEqual([
      `${P}.env[0].valueFrom.configMapKeyRef.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `${P}.env[0].valueFrom.configMapKeyRef.key: Invalid value: "..k": must not start with '..'`,
    ]);
  });
});

describe('envFrom', () => {
  it('wants one source, a name, and a valid prefix; reports a missing source at the list', () => {
    expect(envFrom([{ prefix: 'A=' }, { configMapRef: {}, secretRef: { name: 's' } }, { secretRef: { name: 'ok-' } }])).toEqual([
      `${P}.envFrom[0].prefix: Invalid value: "A=": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      `${P}.envFrom: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\``,
      `${P}.envFrom[1].configMapRef.name: Required value`,
      `${P}.envFrom: Invalid value: "": may not have more than one field specified at a time`,
    ]);
  });
});
