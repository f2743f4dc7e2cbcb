import { describe, expect, it } from 'vitest';
import {
  addQuantity, canonicalQuantity, compareQuantity, formatQuantity, parseQuantity, QuantityError, quantityFromMilli,
  quantityFromNumber, quantityMilliValue, quantityToNumber, quantityValue, subQuantity,
} from './quantity.js';

describe('canonicalQuantity', () => {
  it.each([
    ['0', '0'], ['1', '1'], ['100m', '100m'], ['0.1', '100m'], ['1000m', '1'], ['1500m', '1500m'], ['1.5', '1500m'],
    ['1000', '1k'], ['1000k', '1M'], ['1024', '1024'], ['100n', '100n'], ['0.1n', '1n'], ['-1500m', '-1500m'],
    ['1Ki', '1Ki'], ['1024Ki', '1Mi'], ['1.5Gi', '1536Mi'], ['0.5Ki', '512'], ['1.5Ki', '1536'], ['1.0001Ki', '1024102400u'],
    ['128974848', '128974848'], ['129e6', '129e6'], ['123Mi', '123Mi'], ['1e3', '1e3'], ['12e6', '12e6'], ['1E3', '1e3'],
    ['1e-3', '1e-3'], ['5e-1', '500e-3'], ['1E', '1E'], ['+2', '2'], ['.5', '500m'], ['5.', '5'], ['2000E', '2000E'],
  ])('%s -> %s', (input, canonical) => {
    expect(canonicalQuantity(input)).toBe(canonical);
  });

  it('rejects malformed quantities with upstream messages', () => {
    for (const bad of ['', 'abc', '1.2.3', '-', '1 Ki', 'Ki']) {
      expect(() => parseQuantity(bad)).toThrow("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    }
    expect(() => parseQuantity('1Kii')).toThrow(QuantityError);
    expect(() => parseQuantity('1iK')).toThrow("unable to parse quantity's suffix");
  });
});

describe('quantity arithmetic', () => {
  it('compares across formats', () => {
    expect(compareQuantity(parseQuantity('1Gi'), parseQuantity('1G'))).toBe(1);
    expect(compareQuantity(parseQuantity('500m'), parseQuantity('0.5'))).toBe(0);
    expect(compareQuantity(parseQuantity('100m'), parseQuantity('1'))).toBe(-1);
  });

  it('adds and subtracts exactly, keeping the first format', () => {
    expect(formatQuantity(addQuantity(parseQuantity('100m'), parseQuantity('1.9')))).toBe('2');
    expect(formatQuantity(addQuantity(parseQuantity('1Gi'), parseQuantity('512Mi')))).toBe('1536Mi');
    expect(formatQuantity(addQuantity(parseQuantity('0'), parseQuantity('1Ki')))).toBe('1Ki');
    expect(formatQuantity(subQuantity(parseQuantity('1'), parseQuantity('250m')))).toBe('750m');
  });

  it('converts to numbers, rounding up as Value and MilliValue do', () => {
    expect(quantityValue(parseQuantity('1500m'))).toBe(2);
    expect(quantityMilliValue(parseQuantity('1.5'))).toBe(1500);
    expect(quantityMilliValue(parseQuantity('1n'))).toBe(1);
    expect(quantityToNumber(parseQuantity('2Gi'))).toBe(2147483648);
    expect(quantityToNumber(parseQuantity('250m'))).toBe(0.25);
    expect(formatQuantity(quantityFromMilli(250))).toBe('250m');
    expect(formatQuantity(quantityFromNumber(3 * 1024 * 1024, 'BinarySI'))).toBe('3Mi');
    expect(formatQuantity(quantityFromNumber(0.5))).toBe('500m');
  });
});
