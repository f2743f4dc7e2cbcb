import { describe, expect, it } from 'vitest';
import { invalid } from './errors.js';
import { nameIsDNSLabel } from './names.js';
import { validateAnnotations, validateFieldManager, validateKubeFinalizerNames, validateLabels, validateObjectMeta, validateObjectMetaUpdate } from './objectmeta.js';

describe('validateObjectMeta', () => {
  it('requires a name or generateName, and a namespace when namespaced', () => {
    const causes = validateObjectMeta({}, { namespaced: true });
    expect(causes).toEqual([
      { reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' },
      { reason: 'FieldValueRequired', field: 'metadata.namespace', message: 'Required value' },
    ]);
  });

  it('forbids a namespace on cluster-scoped kinds', () => {
    expect(validateObjectMeta({ name: 'n', namespace: 'x' }, { namespaced: false })).toEqual([
      { reason: 'FieldValueForbidden', field: 'metadata.namespace', message: 'Forbidden: not allowed on this type' },
    ]);
  });

  it('renders as kubectl shows it', () => {
    const causes = validateObjectMeta({ name: 'Bad', namespace: 'default' }, { namespaced: true, nameFn: nameIsDNSLabel });
    expect(invalid('', 'Pod', 'Bad', causes).message).toBe(
      'Pod "Bad" is invalid: metadata.name: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')');
  });

  it('checks labels, owner references and finalizers', () => {
    const causes = validateObjectMeta({
      name: 'ok', namespace: 'default', labels: { app: 'bad value' }, finalizers: ['orphan', 'foregroundDeletion'],
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: '1', controller: true },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'b', uid: '', controller: true },
      ],
    }, { namespaced: true });
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      expect.stringMatching(/^metadata\.labels: Invalid value: "bad value": a valid label must be/),
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
      expect.stringMatching(/^metadata\.ownerReferences: Invalid value: .*Only one reference can have Controller set to true. Found "true" in references for ReplicaSet\/a and ReplicaSet\/b$/),
      'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    ]);
  });

  it('refuses an Event as an owner, printing the reference as Go\'s %#v, as BannedOwners', () => {
    const causes = validateObjectMeta({
      name: 'ok', namespace: 'default',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'a', uid: '1' }, { apiVersion: 'events.k8s.io/v1', kind: 'Event', name: 'b', uid: '2' }],
    }, { namespaced: true });
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'metadata.ownerReferences: Invalid value: v1.OwnerReference{APIVersion:"v1", Kind:"Event", Name:"a", UID:"1", Controller:(*bool)(nil), BlockOwnerDeletion:(*bool)(nil)}: /v1, Kind=Event is disallowed from being an owner',
    ]);
  });

  it('has core\'s rule for bare finalizer names: only the standard ones', () => {
    expect(validateKubeFinalizerNames(['kubernetes', 'orphan', 'foregroundDeletion', 'example.com/x', 'bad_name'], 'metadata.finalizers')
      .map((c) => `${c.field}: ${c.message}`)).toEqual(['metadata.finalizers[4]: Invalid value: "bad_name": name is neither a standard finalizer name nor is it fully qualified']);
  });
});

describe('labels and annotations', () => {
  it('reports the key as the bad value of metadata.labels', () => {
    expect(validateLabels({ '-a': 'b' }, 'metadata.labels')[0]).toMatchObject({ field: 'metadata.labels', message: expect.stringMatching(/^Invalid value: "-a": name part must consist of/) });
    expect(validateLabels({ a: 'b', 'example.com/x': '' }, 'metadata.labels')).toEqual([]);
  });

  it('limits the total annotation size', () => {
    expect(validateAnnotations({ a: 'x'.repeat(256 * 1024) }, 'metadata.annotations')).toEqual([
      { reason: 'FieldValueTooLong', field: 'metadata.annotations', message: 'Too long: may not be more than 262144 bytes' },
    ]);
    expect(validateAnnotations({ 'Example.com/Upper': 'x' }, 'metadata.annotations')).toEqual([]);
  });

  it('checks field manager names', () => {
    expect(validateFieldManager('kubectl', 'fieldManager')).toEqual([]);
    expect(validateFieldManager('x'.repeat(129), 'fieldManager')[0].message).toBe('Too long: may not be more than 128 bytes');
    expect(validateFieldManager('a\nb', 'fieldManager')[0].message).toBe('Invalid value: "a\\nb": invalid character U+000A (at position 1)');
  });
});

describe('validateObjectMetaUpdate', () => {
  const old = { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '5', generation: 2, creationTimestamp: '2026-01-01T00:00:00Z' };
  it('keeps identity immutable and generation monotonic', () => {
    const causes = validateObjectMetaUpdate({ ...old, uid: 'other', generation: 1 }, old);
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'metadata.generation: Invalid value: 1: must not be decremented',
      'metadata.uid: Invalid value: "other": field is immutable',
    ]);
  });

  it('needs a resourceVersion and forbids new finalizers while deleting', () => {
    const deleting = { ...old, deletionTimestamp: '2026-01-02T00:00:00Z', finalizers: ['a/b'] };
    const causes = validateObjectMetaUpdate({ ...deleting, resourceVersion: '', finalizers: ['a/b', 'c/d'] }, deleting);
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"c/d"}',
      'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    ]);
  });
});
