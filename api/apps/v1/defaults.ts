// apps/v1 computed defaults (upstream pkg/apis/apps/v1/defaults.go).
import type { Defaulter } from '../../types.js';
import { A } from './common.js';

type Obj = Record<string, any>;

const specOf = (o: Obj): Obj => (o.spec ??= {});

/** strategy.type defaults to RollingUpdate, whose parameters then get their defaults. */
const rollingUpdate = (strategy: Obj, fill: (params: Obj) => void): void => {
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') fill((strategy.rollingUpdate ??= {}));
};

const deployment: Defaulter = (o) => {
  const spec = specOf(o);
  spec.replicas ??= 1;
  rollingUpdate((spec.strategy ??= {}), (p) => {
    p.maxUnavailable ??= '25%';
    p.maxSurge ??= '25%';
  });
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
};

const replicaSet: Defaulter = (o) => {
  specOf(o).replicas ??= 1;
};

const daemonSet: Defaulter = (o) => {
  const spec = specOf(o);
  rollingUpdate((spec.updateStrategy ??= {}), (p) => {
    p.maxUnavailable ??= 1;
    p.maxSurge ??= 0;
  });
  spec.revisionHistoryLimit ??= 10;
};

const statefulSet: Defaulter = (o) => {
  const spec = specOf(o);
  spec.podManagementPolicy ||= 'OrderedReady';
  const strategy: Obj = (spec.updateStrategy ??= {});
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    strategy.rollingUpdate ??= {};
  }
  if (strategy.type === 'RollingUpdate' && strategy.rollingUpdate) strategy.rollingUpdate.partition ??= 0;
  const retention: Obj = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  retention.whenDeleted ||= 'Retain';
  retention.whenScaled ||= 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  // Not a default but upstream's apps/v1 conversion (issue 87583): every claim template is served with its
  // TypeMeta, whatever the client sent. Written only where it differs: a patched object shares the stored one's parts.
  for (const t of Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates : []) {
    if (t && typeof t === 'object' && (t.apiVersion !== 'v1' || t.kind !== 'PersistentVolumeClaim')) {
      Object.assign(t, { apiVersion: 'v1', kind: 'PersistentVolumeClaim' });
    }
  }
};

export const defaulters: Record<string, Defaulter> = {
  [`${A}Deployment`]: deployment,
  [`${A}ReplicaSet`]: replicaSet,
  [`${A}DaemonSet`]: daemonSet,
  [`${A}StatefulSet`]: statefulSet,
};
