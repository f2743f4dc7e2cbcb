import { describe, expect, it } from 'vitest';
import * as am from './index.js';

describe('index', () => {
  it('exports the public API', () => {
    for (const name of ['parseLabelSelector', 'labelSelectorAsSelector', 'fieldSelectorFor', 'fieldsOf', 'parseQuantity', 'formatQuantity',
      'isDNS1123Subdomain', 'generateName', 'validateObjectMeta', 'applyJsonPatch', 'applyMergePatch', 'applyStrategicMergePatch',
      'decodeObjectPatch', 'apply', 'updateManagedFields', 'defaultManager', 'now', 'newUid', 'notFound', 'resolveSchema']) {
      expect(typeof (am as Record<string, unknown>)[name], name).toBe('function');
    }
    expect(am.field.required('spec.x').message).toBe('Required value');
  });
});
