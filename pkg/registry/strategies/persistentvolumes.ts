// PersistentVolumes (upstream: pkg/registry/core/persistentvolume): the server keeps status.lastPhaseTransitionTime,
// set when the volume is created (phase Pending) and whenever a status write changes the phase without a time of its
// own; a write that keeps the phase keeps the time.
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';

export const persistentVolumeStrategy: Strategy = {
  prepareForCreate(pv, ctx) {
    pv.status = { phase: 'Pending', lastPhaseTransitionTime: rfc3339(ctx.now) };
  },
  prepareForStatusUpdate(pv, old, ctx) {
    const status = (pv.status ??= {});
    const before = old.status?.lastPhaseTransitionTime;
    if (status.phase === old.status?.phase) {
      if (status.lastPhaseTransitionTime === undefined && before !== undefined) status.lastPhaseTransitionTime = before;
    } else if (status.lastPhaseTransitionTime === undefined || status.lastPhaseTransitionTime === before) {
      status.lastPhaseTransitionTime = rfc3339(ctx.now);
    }
  },
};
