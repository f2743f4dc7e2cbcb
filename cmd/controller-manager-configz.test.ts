import { describe, expect, it } from 'vitest';
import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { controllerManagerConfigz } from './controller-manager-configz.js';
import { controllerManagerFlags } from './controller-manager.js';
import { parseFlags } from './flags.js';

const configz = (argv: string[]): Record<string, unknown> => {
  const { values } = parseFlags(argv, controllerManagerFlags);
  const ms = Object.fromEntries(Object.entries(values).filter(([k]) => k.endsWith('-period')).map(([k, x]) => [k, parseGoDurationMs(x as string)!]));
  return controllerManagerConfigz(values, ms)['kubecontrollermanager.config.k8s.io'] as Record<string, unknown>;
};

describe('the controller-manager\'s /configz', () => {
  it('shows --pvclaimbinder-sync-period, 15s unless given', () => {
    expect(configz([]).PersistentVolumeBinderController).toEqual({ PVClaimBinderSyncPeriod: '15s' });
    expect(configz(['--pvclaimbinder-sync-period', '1m30s']).PersistentVolumeBinderController).toEqual({ PVClaimBinderSyncPeriod: '1m30s' });
  });

  it('shows the node lifecycle controller\'s eviction settings', () => {
    expect(configz(['--secondary-node-eviction-rate', '0.5', '--large-cluster-size-threshold', '10']).NodeLifecycleController).toEqual({
      NodeEvictionRate: 0.1, SecondaryNodeEvictionRate: 0.5, NodeStartupGracePeriod: '1m0s', NodeMonitorGracePeriod: '50s',
      LargeClusterSizeThreshold: 10, UnhealthyZoneThreshold: 0.55,
    });
  });
});
