import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import { escapeFieldValue, fieldSelectorFor, fieldsOf, parseFieldSelector } from './fields.js';

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError && e.code === 400 && e.reason === 'BadRequest') return e.message;
    throw e;
  }
  throw new Error('expected a BadRequest');
};

describe('parseFieldSelector', () => {
  it('parses =, == and != and matches missing fields as empty', () => {
    const s = parseFieldSelector('status.phase!=Running,metadata.name==web,spec.nodeName=');
    expect(s.matches({ 'metadata.name': 'web', 'status.phase': 'Pending' })).toBe(true);
    expect(s.matches({ 'metadata.name': 'web', 'status.phase': 'Running' })).toBe(false);
    expect(s.matches({ 'metadata.name': 'web', 'spec.nodeName': 'n1' })).toBe(false);
    expect(s.toString()).toBe('metadata.name=web,spec.nodeName=,status.phase!=Running');
    expect(s.requiresExactMatch('metadata.name')).toBe('web');
    expect(s.requiresExactMatch('status.phase')).toBeUndefined();
  });

  it('honours escapes', () => {
    const s = parseFieldSelector('a=x\\,y\\=z\\\\,b=c');
    expect(s.requirements).toEqual([
      { field: 'a', operator: '=', value: 'x,y=z\\' },
      { field: 'b', operator: '=', value: 'c' },
    ]);
    expect(escapeFieldValue('x,y=z\\')).toBe('x\\,y\\=z\\\\');
    expect(s.toString()).toBe('a=x\\,y\\=z\\\\,b=c');
  });

  it('is empty for the empty string', () => {
    expect(parseFieldSelector('').empty).toBe(true);
  });

  it('rejects malformed selectors with upstream wording', () => {
    expect(messageOf(() => parseFieldSelector('abc'))).toBe("invalid selector: 'abc'; can't understand 'abc'");
    expect(messageOf(() => parseFieldSelector('a=b=c'))).toBe('invalid field selector: unescaped character in value: 61');
    expect(messageOf(() => parseFieldSelector('a=b\\x'))).toBe('invalid field selector: invalid escape sequence: \\x');
    expect(messageOf(() => parseFieldSelector('a=b\\'))).toBe('invalid field selector: invalid escape sequence: \\');
  });
});

describe('fieldSelectorFor', () => {
  it('accepts the fields a resource supports and renames spec.host', () => {
    expect(fieldSelectorFor('', 'pods', 'spec.host=n1').requirements[0].field).toBe('spec.nodeName');
    expect(fieldSelectorFor('batch', 'jobs', 'status.successful=1').empty).toBe(false);
  });

  it('words unsupported fields as upstream does', () => {
    expect(messageOf(() => fieldSelectorFor('', 'pods', 'spec.foo=x'))).toBe('field label not supported: spec.foo');
    expect(messageOf(() => fieldSelectorFor('', 'nodes', 'metadata.namespace=x'))).toBe('field label not supported: metadata.namespace');
    expect(messageOf(() => fieldSelectorFor('networking.k8s.io', 'ingresses', 'foo.bar=baz')))
      .toBe('"foo.bar" is not a known field selector: only "metadata.name", "metadata.namespace"');
    expect(fieldSelectorFor('', 'configmaps', 'metadata.namespace!=default').empty).toBe(false);
  });
});

describe('fieldsOf', () => {
  it('gives pod fields as upstream selectable fields', () => {
    const pod = {
      metadata: { name: 'p', namespace: 'ns' },
      spec: { nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'default' },
      status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] },
    };
    expect(fieldsOf('pods', pod)).toEqual({
      'metadata.name': 'p', 'metadata.namespace': 'ns', 'spec.nodeName': 'n1', 'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler', 'spec.serviceAccountName': 'default', 'spec.hostNetwork': 'false',
      'status.phase': 'Running', 'status.podIP': '10.0.0.1', 'status.nominatedNodeName': '',
    });
    expect(fieldSelectorFor('', 'pods', 'spec.nodeName=n1,status.phase!=Succeeded').matches(fieldsOf('pods', pod))).toBe(true);
    // taken, as upstream's conversion takes it, but never filled: only the empty value matches
    expect(fieldSelectorFor('', 'pods', 'status.podIPs=10.0.0.1').matches(fieldsOf('pods', pod))).toBe(false);
    expect(fieldSelectorFor('', 'pods', 'status.podIPs!=10.0.0.1').matches(fieldsOf('pods', pod))).toBe(true);
  });

  it('covers events, secrets, nodes, namespaces, replicas, jobs and CSRs', () => {
    const ev = fieldsOf('events', { metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p', uid: 'u' }, reason: 'Started', source: { component: 'kubelet' }, reportingComponent: 'kubelet', type: 'Normal' });
    expect(ev).toMatchObject({ 'involvedObject.kind': 'Pod', 'involvedObject.name': 'p', 'involvedObject.uid': 'u', reason: 'Started', source: 'kubelet', type: 'Normal', 'involvedObject.fieldPath': '' });
    expect(fieldsOf('secrets', { type: 'Opaque' }).type).toBe('Opaque');
    expect(fieldsOf('nodes', { spec: { unschedulable: true } })['spec.unschedulable']).toBe('true');
    expect(fieldsOf('namespaces', { status: { phase: 'Active' } })['status.phase']).toBe('Active');
    expect(fieldsOf('replicasets', { status: {} })['status.replicas']).toBe('0');
    expect(fieldsOf('jobs', { status: { succeeded: 2 } })['status.successful']).toBe('2');
    expect(fieldsOf('certificatesigningrequests', { spec: { signerName: 'kubernetes.io/kubelet-serving' } })['spec.signerName']).toBe('kubernetes.io/kubelet-serving');
    expect(fieldsOf('configmaps', { metadata: { name: 'c' } })).toEqual({ 'metadata.name': 'c', 'metadata.namespace': '' });
    // a custom resource may be called anything, "constructor" included
    expect(fieldsOf('constructor', { kind: 'X', metadata: { name: 'c' } })).toEqual({ 'metadata.name': 'c', 'metadata.namespace': '' });
  });
});
