import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('events/v1', () => {
  it('references only known definitions (core aside)', () => {
    const outside = danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })
      .filter((r) => !r.includes('-> io.k8s.api.core.v1.'));
    expect(outside).toEqual([]);
  });

  it('requires eventTime and serves events as ev', () => {
    expect(groupVersion.definitions['io.k8s.api.events.v1.Event'].required).toEqual(['eventTime']);
    expect(groupVersion.resources[0].shortNames).toEqual(['ev']);
  });
});
