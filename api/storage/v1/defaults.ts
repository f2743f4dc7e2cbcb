// storage/v1 computed defaults (upstream pkg/apis/storage/v1/defaults.go).
import type { Defaulter } from '../../types.js';
import { S } from './common.js';

const storageClass: Defaulter = (o) => {
  o.reclaimPolicy ??= 'Delete';
  o.volumeBindingMode ??= 'Immediate';
};

const csiDriver: Defaulter = (o) => {
  const spec = (o.spec ??= {});
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  if (!spec.volumeLifecycleModes?.length) spec.volumeLifecycleModes = ['Persistent'];
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
};

export const defaulters: Record<string, Defaulter> = {
  [`${S}StorageClass`]: storageClass,
  [`${S}CSIDriver`]: csiDriver,
};
