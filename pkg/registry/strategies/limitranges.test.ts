import { describe, expect, it } from 'vitest';
import { causeToString } from '../../apimachinery/field.js';
import { validateLimitRangeSpec } from './limitranges.js';

const strs = (causes: { field?: string; message?: string }[]): string[] => causes.map(causeToString);

describe('LimitRange validation', () => {
  it('takes a usual range', () => {
    expect(validateLimitRangeSpec({ limits: [
      { type: 'Container', min: { cpu: '100m' }, max: { cpu: '2' }, default: { cpu: '1' }, defaultRequest: { cpu: '500m' }, maxLimitRequestRatio: { cpu: '4' } },
      { type: 'Pod', max: { memory: '4Gi' } },
      { type: 'PersistentVolumeClaim', min: { storage: '1Gi' } },
    ] })).toEqual([]);
  });

  it('checks types, names and the ordering of bounds', () => {
    expect(strs(validateLimitRangeSpec({ limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] }))).toEqual([
      'spec.limits[0].min[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2", Format:"DecimalSI"}: min value 2 is greater than max value 1',
    ]);
    expect(strs(validateLimitRangeSpec({ limits: [{ type: 'Node' }, { type: 'Pod', default: { cpu: '1' } }, { type: 'Pod' }] }))).toEqual([
      'spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified',
      "spec.limits[1].default: Forbidden: may not be specified when `type` is 'Pod'",
      'spec.limits[2].type: Duplicate value: "Pod"',
    ]);
    expect(strs(validateLimitRangeSpec({ limits: [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }] }))).toEqual([
      'spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    ]);
    expect(strs(validateLimitRangeSpec({ limits: [{ type: 'Container', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }] }))).toEqual([
      'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:3, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"3", Format:"DecimalSI"}: ratio 3 is greater than max/min = 2.000000',
    ]);
    expect(strs(validateLimitRangeSpec({ limits: [{ type: 'Container', default: { memory: '1Gi' }, defaultRequest: { memory: '2Gi' }, maxLimitRequestRatio: { memory: '500m' }, max: { foo: '1' } }] }))).toEqual([
      'spec.limits[0].max[foo]: Invalid value: foo: must be a standard resource type or fully qualified',
      'spec.limits[0].max[foo]: Invalid value: foo: must be a standard resource for containers',
      'spec.limits[0].defaultRequest[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:2147483648, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"2Gi", Format:"BinarySI"}: default request value 2Gi is greater than default limit value 1Gi',
      'spec.limits[0].maxLimitRequestRatio[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: ratio 500m is less than 1',
    ]);
  });
});
