import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateContainerResources } from './resources.js';

const R = 'spec.containers[0].resources';
const errors = (resources: unknown): string[] => {
  const out: StatusCause[] = [];
  validateContainerResources(resources, R, out);
  return out.map(causeToString);
};

describe('container resources', () => {
  it('accepts cpu, memory, ephemeral storage, hugepages and extended resources', () => {
    expect(errors({
      limits: { cpu: '2', memory: '1Gi', 'ephemeral-storage': '1G', 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2' },
      requests: { cpu: '500m', memory: 1073741824, 'hugepages-2Mi': '4Mi', 'example.com/gpu': '2000m' },
    })).toEqual([]);
  });

  it('refuses negative quantities and requests above limits, quoting canonical quantities', () => {
    expect(errors({ limits: { cpu: '1', memory: '0.5Gi' }, requests: { cpu: '1.5', memory: '-1' } })).toEqual([
      `${R}.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1`,
      `${R}.requests[memory]: Invalid value: "-1": must be greater than or equal to 0`,
    ]);
  });

  it('refuses unknown resource names, printed bare as Go prints a ResourceName', () => {
    expect(errors({ limits: { foo: '1', 'example.com/-x': '1', 'kubernetes.io/x': '1', 'requests.cpu': '1', 'example.com/a_b': '1' } })).toEqual([
      `${R}.limits[foo]: Invalid value: foo: must be a standard resource type or fully qualified`,
      `${R}.limits[foo]: Invalid value: foo: must be a standard resource for containers`,
      expect.stringMatching(/^spec\.containers\[0\]\.resources\.limits\[example\.com\/-x\]: Invalid value: example\.com\/-x: name part must consist of /),
      `${R}.limits[example.com/-x]: Invalid value: example.com/-x: doesn't follow extended resource name standard`,
      `${R}.limits[requests.cpu]: Invalid value: requests.cpu: must be a standard resource for containers`,
    ]);
  });

  it('wants extended resources whole, limited, and requested at their limit', () => {
    expect(errors({ limits: { 'example.com/gpu': '1' }, requests: { 'example.com/gpu': '500m', 'example.com/fpga': '1' } })).toEqual([
      `${R}.requests[example.com/gpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: must be an integer`,
      `${R}.requests: Invalid value: "500m": must be equal to example.com/gpu limit of 1`,
      `${R}.limits: Required value: Limit must be set for non overcommitable resources`,
    ]);
  });

  it('wants hugepages in whole pages and next to cpu or memory', () => {
    expect(errors({ limits: { 'hugepages-2Mi': '3Mi' } })).toEqual([
      `${R}.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`,
      `${R}: Forbidden: HugePages require cpu or memory`,
    ]);
  });

  it('ignores an empty or odd resources', () => {
    expect(errors({})).toEqual([]);
    expect(errors('x')).toEqual([]);
    expect(errors({ limits: [], requests: { cpu: {} } })).toEqual([]);
  });
});
