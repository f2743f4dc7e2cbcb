// Integer fields of built-in kinds as Go's decoder reads them: strconv.ParseInt refuses a number written with a
// fraction or an exponent (2.0, 1e1), which JSON.parse makes an integer of, and an int32 refuses what overflows it;
// an IntOrString decodes a number through its own UnmarshalJSON, into an int32 no struct field names.
import { describe, expect, it } from 'vitest';
import { allDefaulters, allDefinitions } from '../../../api/index.js';
import { StatusError } from '../../apimachinery/errors.js';
import { floatLiterals } from '../../apimachinery/json-duplicates.js';
import { SchemaIndex } from './index.js';
import { TypeChecker } from './typecheck.js';

const types = new TypeChecker(new SchemaIndex(allDefinitions, allDefaulters));
const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
const POD = 'io.k8s.api.core.v1.Pod';

/** The decoder's refusal of the JSON `text` as a `kind`, with the literals the body scan finds in it, or undefined. */
const refusal = (text: string, definition: string, kind: string): string | undefined => {
  try {
    types.check(JSON.parse(text), definition, kind, 'v1', floatLiterals(text));
    return undefined;
  } catch (e) {
    return e instanceof StatusError ? `${e.code} ${e.message}` : String(e);
  }
};
const deployment = (spec: string): string | undefined => refusal(`{"spec":${spec}}`, DEPLOYMENT, 'Deployment');
const pod = (spec: string): string | undefined => refusal(`{"spec":${spec}}`, POD, 'Pod');
const cannot = (kind: string, error: string): string => `400 ${kind} in version "v1" cannot be handled as a ${kind}: json: cannot unmarshal ${error}`;

describe('integer fields given a number with a fraction or an exponent', () => {
  it('are refused as strconv.ParseInt refuses them, the number quoted as written', () => {
    expect(deployment('{"replicas":2.0}')).toBe(cannot('Deployment', 'number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32'));
    expect(pod('{"terminationGracePeriodSeconds":1e1}')).toBe(cannot('Pod', 'number 1e1 into Go struct field PodSpec.spec.terminationGracePeriodSeconds of type int64'));
    expect(pod('{"containers":[{"name":"c","ports":[{"containerPort":80},{"containerPort":8.0E1}]}]}'))
      .toBe(cannot('Pod', 'number 8.0E1 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32'));
    expect(pod('{"securityContext":{"supplementalGroups":[1,2.50]}}'))
      .toBe(cannot('Pod', 'number 2.50 into Go struct field PodSecurityContext.spec.securityContext.supplementalGroups of type int64'));
    expect(deployment('{"replicas":2}')).toBeUndefined();
  });

  it('leave other fields alone: quantities, unknown fields, and strings are what they were', () => {
    expect(pod('{"containers":[{"name":"c","resources":{"limits":{"cpu":2.0,"memory":1e9}}}]}')).toBeUndefined();
    expect(deployment('{"replicas":2,"notAField":2.5,"template":{"metadata":{"annotations":{"a":"2.0"}}}}')).toBeUndefined();
    expect(refusal('{"metadata":{"labels":{"a":1.5}}}', POD, 'Pod')).toBe(cannot('Pod', 'number into Go struct field ObjectMeta.metadata.labels of type string'));
  });

  it('are the first type error in document order; an own decoder failing anywhere comes first', () => {
    expect(deployment('{"replicas":2.0,"paused":"yes"}')).toBe(cannot('Deployment', 'number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32'));
    expect(deployment('{"paused":"yes","replicas":2.0}')).toBe(cannot('Deployment', 'string into Go struct field DeploymentSpec.spec.paused of type bool'));
    expect(deployment('{"replicas":2.0,"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"abc"}}}]}}}'))
      .toBe('400 Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'');
    // Go decodes both of a repeated field (the first one fails); JSON.parse keeps the last
    expect(deployment('{"replicas":2.0,"replicas":3}')).toBe(cannot('Deployment', 'number 2.0 into Go struct field DeploymentSpec.spec.replicas of type int32'));
    // a holder of the wrong type is skipped whole
    expect(pod('{"containers":{"c":{"ports":[{"containerPort":1.0}]}}}')).toBe(cannot('Pod', 'object into Go struct field PodSpec.spec.containers of type []v1.Container'));
  });
});

describe('int32 fields given a number past their range', () => {
  it('are refused as OverflowInt refuses them; an int64 takes it', () => {
    expect(deployment('{"replicas":3000000000}')).toBe(cannot('Deployment', 'number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32'));
    expect(deployment('{"replicas":-2147483649}')).toBe(cannot('Deployment', 'number -2147483649 into Go struct field DeploymentSpec.spec.replicas of type int32'));
    expect(deployment('{"replicas":2147483647,"revisionHistoryLimit":-2147483648}')).toBeUndefined();
    expect(pod('{"activeDeadlineSeconds":3000000000}')).toBeUndefined();
  });

  it('int64 fields past an int64 are refused too (9223372036854775807 is 2^63 to JSON.parse, and taken)', () => {
    expect(pod('{"activeDeadlineSeconds":100000000000000000000}')).toBe(cannot('Pod', 'number 100000000000000000000 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64'));
    expect(pod('{"activeDeadlineSeconds":-100000000000000000000}')).toBe(cannot('Pod', 'number -100000000000000000000 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64'));
    expect(pod('{"activeDeadlineSeconds":9223372036854775807,"terminationGracePeriodSeconds":-9223372036854775808}')).toBeUndefined();
  });
});

describe('IntOrString fields', () => {
  const maxSurge = (v: string): string | undefined => deployment(`{"strategy":{"rollingUpdate":{"maxSurge":${v}}}}`);
  it('decode anything but a string as an int32 of their own, which no struct field names', () => {
    expect(maxSurge('2.0')).toBe(cannot('Deployment', 'number 2.0 into Go value of type int32'));
    expect(maxSurge('2.5')).toBe(cannot('Deployment', 'number 2.5 into Go value of type int32'));
    expect(maxSurge('3000000000')).toBe(cannot('Deployment', 'number 3000000000 into Go value of type int32'));
    expect(maxSurge('true')).toBe(cannot('Deployment', 'bool into Go value of type int32'));
    expect(maxSurge('{}')).toBe(cannot('Deployment', 'object into Go value of type int32'));
    for (const ok of ['2', '"25%"', '""', 'null']) expect(maxSurge(ok), ok).toBeUndefined();
  });

  it('stop the decoder where they fail, whatever type error came before', () => {
    expect(deployment('{"replicas":2.0,"strategy":{"rollingUpdate":{"maxSurge":1.0}}}')).toBe(cannot('Deployment', 'number 1.0 into Go value of type int32'));
    expect(deployment('{"paused":"yes","strategy":{"rollingUpdate":{"maxSurge":true}}}')).toBe(cannot('Deployment', 'bool into Go value of type int32'));
  });
});

describe('[]byte fields given a string that is not padded base64', () => {
  it('are refused with base64\'s error, saved as a type error is: the first in document order', () => {
    const secret = (body: string): string | undefined => refusal(body, 'io.k8s.api.core.v1.Secret', 'Secret');
    expect(secret('{"data":{"a":"s3cr3t!"}}')).toBe('400 Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 6');
    expect(secret('{"data":{"a":"YWJ"}}')).toBe('400 Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0');
    expect(secret('{"data":{"a":"YWJ"},"immutable":"yes"}')).toBe('400 Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0');
    expect(secret('{"data":{"a":"YWJj\\nZA==","b":"YR=="}}')).toBeUndefined();
    expect(refusal('{"binaryData":{"k":"YQ="}}', 'io.k8s.api.core.v1.ConfigMap', 'ConfigMap'))
      .toBe('400 ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 3');
  });
});
