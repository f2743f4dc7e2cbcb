import { describe, expect, it } from 'vitest';
import { goFloat, goValue } from './go-format.js';

describe('Go %v of decoded JSON', () => {
  it('formats floats as strconv\'s shortest g', () => {
    expect([1, 1.5, 123456, 1e6, 1234567, 0.0001, 0.00001, -2.5e-7, 0].map(goFloat))
      .toEqual(['1', '1.5', '123456', '1e+06', '1.234567e+06', '0.0001', '1e-05', '-2.5e-07', '0']);
  });

  it('prints maps with sorted keys, slices, strings unquoted and nil', () => {
    expect(goValue({ spec: { replicas: 3, paused: false, template: { x: null } }, a: ['b', 1] }))
      .toBe('map[a:[b 1] spec:map[paused:false replicas:3 template:map[x:<nil>]]]');
  });
});
