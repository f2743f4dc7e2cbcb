import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import type { KubeObject } from '../../../api/types.js';
import { validateConfigMap, validateConfigMapUpdate } from './configmaps.js';
import { goJsonObjectError, validateSecret } from './secrets.js';
import { secretStrategy } from './secrets.js';
import { testContext } from '../generic/testing.js';

const msgs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);
const cm = (o: Partial<KubeObject>): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd' }, ...o });
const KEY_ERROR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('ConfigMap validation', () => {
  it('takes valid keys, __proto__ included', () => {
    expect(validateConfigMap(cm({ data: JSON.parse('{"a.b":"1","A_B-c":"2","__proto__":"x",".hidden":"y"}'), binaryData: { bin: 'AAE=' } }))).toEqual([]);
    expect(validateConfigMap(cm({}))).toEqual([]);
  });

  it('refuses bad keys, with each of upstream\'s messages', () => {
    expect(msgs(validateConfigMap(cm({ data: { 'bad key': 'x' } })))).toEqual([`data[bad key]: Invalid value: "bad key": ${KEY_ERROR}`]);
    expect(msgs(validateConfigMap(cm({ binaryData: { '..x': 'AA==' } })))).toEqual(['binaryData[..x]: Invalid value: "..x": must not start with \'..\'']);
    expect(msgs(validateConfigMap(cm({ data: { '.': 'x', '..': 'y' } })))).toEqual(['data[.]: Invalid value: ".": must not be \'.\'', 'data[..]: Invalid value: "..": must not be \'..\'']);
    const long = 'k'.repeat(254);
    expect(msgs(validateConfigMap(cm({ data: { [long]: 'x' } })))).toEqual([`data[${long}]: Invalid value: "${long}": must be no more than 253 characters`]);
  });

  it('refuses a key in both data and binaryData', () => {
    expect(msgs(validateConfigMap(cm({ data: { a: 'x' }, binaryData: { a: 'eA==' } })))).toEqual(['data[a]: Invalid value: "a": duplicate of key present in binaryData']);
  });

  it('refuses more than 1 MiB of values, counted as Go counts them', () => {
    const half = 'x'.repeat(512 * 1024);
    expect(validateConfigMap(cm({ data: { a: half, b: half } }))).toEqual([]);
    expect(msgs(validateConfigMap(cm({ data: { a: half, b: `${half}x` } })))).toEqual(['[]: Too long: may not be more than 1048576 bytes']);
    // three UTF-8 bytes each: 350000 of them pass 1 MiB though their UTF-16 length does not
    expect(msgs(validateConfigMap(cm({ data: { a: '€'.repeat(350000) } })))).toEqual(['[]: Too long: may not be more than 1048576 bytes']);
    // base64 is counted decoded: 1 MiB of bytes is 1398104 characters
    expect(validateConfigMap(cm({ binaryData: { a: Buffer.alloc(1024 * 1024).toString('base64') } }))).toEqual([]);
    expect(msgs(validateConfigMap(cm({ data: { a: 'x' }, binaryData: { b: Buffer.alloc(1024 * 1024).toString('base64') } })))).toEqual(['[]: Too long: may not be more than 1048576 bytes']);
  });

  it('keeps an immutable ConfigMap as it is', () => {
    const old = cm({ immutable: true, data: { a: '1' } });
    expect(validateConfigMapUpdate(cm({ immutable: true, data: { a: '1' } }), old)).toEqual([]);
    expect(msgs(validateConfigMapUpdate(cm({ data: { a: '2' }, binaryData: { b: 'AA==' } }), old))).toEqual([
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
      'binaryData: Forbidden: field is immutable when `immutable` is set',
    ]);
    expect(validateConfigMapUpdate(cm({ data: { a: '2' } }), cm({ data: { a: '1' } }))).toEqual([]);
  });
});

const secret = (type: string, data: Record<string, string> = {}, annotations?: Record<string, string>): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'd', annotations }, type, data });
const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('Secret validation', () => {
  it('refuses bad keys and more than 1 MiB of data', () => {
    expect(msgs(validateSecret(secret('Opaque', { 'a b': 'eA==' })))).toEqual([`data[a b]: Invalid value: "a b": ${KEY_ERROR}`]);
    expect(msgs(validateSecret(secret('Opaque', { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') })))).toEqual(['data: Too long: may not be more than 1048576 bytes']);
  });

  it('requires what each well-known type needs', () => {
    expect(msgs(validateSecret(secret('kubernetes.io/service-account-token')))).toEqual(['metadata.annotations[kubernetes.io/service-account.name]: Required value']);
    expect(validateSecret(secret('kubernetes.io/service-account-token', {}, { 'kubernetes.io/service-account.name': 'default' }))).toEqual([]);
    expect(msgs(validateSecret(secret('kubernetes.io/dockercfg')))).toEqual(['data[.dockercfg]: Required value']);
    expect(msgs(validateSecret(secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('[1]') }))))
      .toEqual(['data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}']);
    expect(validateSecret(secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': b64('{"auths":{}}') }))).toEqual([]);
    expect(msgs(validateSecret(secret('kubernetes.io/basic-auth')))).toEqual(['data[username]: Required value', 'data[password]: Required value']);
    expect(validateSecret(secret('kubernetes.io/basic-auth', { password: '' }))).toEqual([]);
    expect(msgs(validateSecret(secret('kubernetes.io/ssh-auth', { 'ssh-privatekey': '' })))).toEqual(['data[ssh-privatekey]: Required value']);
    expect(msgs(validateSecret(secret('kubernetes.io/tls', { 'tls.crt': 'eA==' })))).toEqual(['data[tls.key]: Required value']);
    expect(validateSecret(secret('example.com/custom'))).toEqual([]);
  });

  it('words JSON errors as encoding/json does', () => {
    expect(goJsonObjectError('')).toBe('unexpected end of JSON input');
    expect(goJsonObjectError('{"a":')).toBe('unexpected end of JSON input');
    expect(goJsonObjectError('hello')).toBe("invalid character 'h' looking for beginning of value");
    expect(goJsonObjectError('"s"')).toBe('json: cannot unmarshal string into Go value of type map[string]interface {}');
    expect(goJsonObjectError('true')).toBe('json: cannot unmarshal bool into Go value of type map[string]interface {}');
    expect(goJsonObjectError('null')).toBeUndefined();
  });

  it('keeps the type and an immutable Secret\'s data', () => {
    const old = { ...secret('Opaque', { a: 'eA==' }), immutable: true };
    const ctx = testContext();
    expect(msgs(secretStrategy.validateUpdate!({ ...secret('kubernetes.io/tls', { a: 'eQ==' }) }, old, ctx))).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
      'data[tls.crt]: Required value',
      'data[tls.key]: Required value',
    ]);
  });
});

describe('goJsonObjectError syntax errors', () => {
  it('names the first bad character and its context as Go\'s scanner does', () => {
    expect(goJsonObjectError('{} x')).toBe("invalid character 'x' after top-level value");
    expect(goJsonObjectError('{a:1}')).toBe("invalid character 'a' looking for beginning of object key string");
    expect(goJsonObjectError('[1,]')).toBe("invalid character ']' looking for beginning of value");
    expect(goJsonObjectError('{"a" 1}')).toBe("invalid character '1' after object key");
    expect(goJsonObjectError('{"a":1 "b":2}')).toBe("invalid character '\"' after object key:value pair");
    expect(goJsonObjectError('[1 2]')).toBe("invalid character '2' after array element");
    expect(goJsonObjectError('tru')).toBe('unexpected end of JSON input');
    expect(goJsonObjectError('trux')).toBe("invalid character 'x' in literal true (expecting 'e')");
    expect(goJsonObjectError('{"a":"\\q"}')).toBe("invalid character 'q' in string escape code");
  });
});
