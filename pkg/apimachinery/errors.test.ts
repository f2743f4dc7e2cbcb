import { describe, expect, it } from 'vitest';
import { alreadyExists, fieldCause, invalid, notFound } from './errors.js';

describe('StatusError', () => {
  it('words NotFound and AlreadyExists as upstream', () => {
    expect(notFound({ group: '', resource: 'pods' }, 'web').toStatus()).toMatchObject({
      kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404, message: 'pods "web" not found',
      details: { name: 'web', kind: 'pods' },
    });
    expect(alreadyExists({ group: 'apps', resource: 'deployments' }, 'web').message).toBe('deployments.apps "web" already exists');
  });

  it('lists several field causes in brackets', () => {
    const e = invalid('', 'Pod', 'p', [
      fieldCause('FieldValueRequired', 'spec.containers', 'Required value'),
      fieldCause('FieldValueInvalid', 'metadata.name', 'Invalid value: "A": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters'),
    ]);
    expect(e.code).toBe(422);
    expect(e.message).toBe('Pod "p" is invalid: [spec.containers: Required value, metadata.name: Invalid value: "A": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters]');
  });

  it('says a cause given twice once in its message, and keeps both causes, as upstream\'s ToAggregate', () => {
    const twice = fieldCause('FieldValueInvalid', 'spec', 'Invalid value: "x": field is immutable');
    const e = invalid('storage.k8s.io', 'VolumeAttachment', 'va', [twice, twice]);
    expect(e.message).toBe('VolumeAttachment.storage.k8s.io "va" is invalid: spec: Invalid value: "x": field is immutable');
    expect(e.details?.causes).toHaveLength(2);
  });
});
