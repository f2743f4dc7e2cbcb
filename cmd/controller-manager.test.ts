import { describe, expect, it } from 'vitest';
import { controllerManagerFlags, nodeLifecycleConfig } from './controller-manager.js';
import { FlagError, parseFlags, usage } from './flags.js';

const settings = (argv: string[]) => nodeLifecycleConfig(parseFlags(argv, controllerManagerFlags).values);

describe('the controller-manager\'s node lifecycle flags (upstream NodeLifecycleControllerOptions)', () => {
  it('default to upstream\'s: 0.1 and 0.01 nodes a second, 50 nodes, 0.55', () => {
    expect(settings([])).toEqual({ nodeEvictionRate: 0.1, secondaryNodeEvictionRate: 0.01, largeClusterSizeThreshold: 50, unhealthyZoneThreshold: 0.55 });
  });

  it('take the values given', () => {
    expect(settings(['--secondary-node-eviction-rate', '0.5', '--large-cluster-size-threshold=3', '--unhealthy-zone-threshold', '0.3', '--node-eviction-rate', '2']))
      .toEqual({ nodeEvictionRate: 2, secondaryNodeEvictionRate: 0.5, largeClusterSizeThreshold: 3, unhealthyZoneThreshold: 0.3 });
    expect(settings(['--secondary-node-eviction-rate', '1e-3']).secondaryNodeEvictionRate).toBe(0.001);
  });

  it('refuse what is not a number, a negative rate, or a size out of int32\'s range', () => {
    for (const argv of [
      ['--secondary-node-eviction-rate', 'fast'], ['--secondary-node-eviction-rate', ''], ['--secondary-node-eviction-rate', '-1'],
      ['--unhealthy-zone-threshold', 'half'], ['--unhealthy-zone-threshold', '0x1'], ['--node-eviction-rate', ' 1'],
      ['--large-cluster-size-threshold', '2147483648'],
    ]) {
      expect(() => settings(argv), argv.join(' ')).toThrow(FlagError);
    }
    expect(() => settings(['--unhealthy-zone-threshold', 'half'])).toThrow('invalid argument "half" for "--unhealthy-zone-threshold" flag: strconv.ParseFloat: parsing "half": invalid syntax');
    expect(() => parseFlags(['--large-cluster-size-threshold', '1.5'], controllerManagerFlags)).toThrow(FlagError);
  });

  it('are listed by --help with their defaults', () => {
    const help = usage('controller-manager', '', controllerManagerFlags);
    expect(help).toMatch(/--secondary-node-eviction-rate float32 +.*\(default 0\.01\)/);
    expect(help).toMatch(/--large-cluster-size-threshold int +.*\(default 50\)/);
    expect(help).toMatch(/--unhealthy-zone-threshold float32 +.*\(default 0\.55\)/);
    expect(help).toMatch(/--node-eviction-rate float32 +.*\(default 0\.1\)/);
  });
});
