import { describe, expect, it } from 'vitest';
import { goQuantity } from './go-values.js';


describe('goQuantity', () => {
  it('prints a parsed quantity as %#v does', () => {
    expect(goQuantity('2')).toBe('resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}');
    expect(goQuantity('100m')).toBe('resource.Quantity{i:resource.int64Amount{value:100, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"100m", Format:"DecimalSI"}');
    expect(goQuantity('1Gi')).toBe('resource.Quantity{i:resource.int64Amount{value:1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1Gi", Format:"BinarySI"}');
    expect(goQuantity('8Gi')).toBe('resource.Quantity{i:resource.int64Amount{value:8589934592, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"BinarySI"}');
    expect(goQuantity('1.5')).toBe('resource.Quantity{i:resource.int64Amount{value:15, scale:-1}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}');
    expect(goQuantity(1000)).toBe('resource.Quantity{i:resource.int64Amount{value:1000, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}');
  });
});
