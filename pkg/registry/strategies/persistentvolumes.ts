// PersistentVolumes (upstream: pkg/registry/core/persistentvolume and ValidatePersistentVolume(Update) in
// pkg/apis/core/validation).
//
// The server keeps status.lastPhaseTransitionTime, set when the volume is created (phase Pending) and whenever a
// status write changes the phase without a time of its own; a write that keeps the phase keeps the time.
//
// The spec: access modes given and known (ReadWriteOncePod alone), a capacity of storage only and above zero, a known
// reclaim policy (not Recycle for a hostPath of /), node affinity with required terms, exactly one volume source
// (flexVolume aside, which upstream never refuses as a second one) checked by its own rules (upstream's
// validate*PersistentVolumeSource, or the pod volume's where upstream shares it: a GCE disk's errors at
// `spec.persistentDisk`, as upstream has them; local needs node affinity), a storage class that is a DNS
// subdomain, a known volume mode that never changes. On updates the volume source is immutable (but for a CSI
// controllerExpandSecretRef added where there was none), as is node affinity once set. The spec's rules also check a
// VolumeAttachment's inline spec (upstream's validateInlinePersistentVolumeSpec); the CSI driver-name check
// (ValidateCSIDriverName) is shared with CSINodes and VolumeAttachments.
import { posix } from 'node:path';
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required, tooLong } from '../../apimachinery/field.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/names.js';
import { compareQuantity, formatQuantity, quantityValue } from '../../apimachinery/quantity.js';
import { rfc3339 } from '../meta.js';
import type { Strategy } from '../strategy.js';
import { checkNodeSelector } from '../validation/affinity.js';
import { checkNoBacksteps, isObj, list, str } from '../validation/field-checks.js';
import {
  checkAWSElasticBlockStore, checkAzureDisk, checkAzureFile, checkCephFS, checkCinder, checkFC, checkFlex, checkFlocker,
  checkGCEPersistentDisk, checkGlusterfs, checkIscsi, checkPhotonPersistentDisk, checkPortworxVolume, checkQuobyte, checkRBD,
  checkScaleIO, checkStorageOS, checkVsphereVolume, requireField,
} from '../validation/volumes.js';
import { goNested, goStructDiff, type GoField } from '../validation/go-diff.js';
import { goPointer, goQuantity, goQuote, invalidRendered, notSupportedRendered } from '../validation/go-values.js';
import { jsonEqual } from '../../apimachinery/json-equal.js';
import { quantityOf } from '../validation/resources.js';
import { persistentVolumeWarnings } from './volume-warnings.js';

/** sets.List order. */
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const MORE_THAN_ONE = 'may not specify more than 1 volume type';
const ZERO = { nanos: 0n, format: 'DecimalSI' as const };
/** The sources in upstream's order: [field, the path a second source is refused at]. flexVolume is never refused. */
const SOURCES: readonly [string, string][] = [
  ['hostPath', 'hostPath'], ['gcePersistentDisk', 'gcePersistentDisk'], ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['glusterfs', 'glusterfs'], ['flocker', 'flocker'], ['nfs', 'nfs'], ['rbd', 'rbd'], ['quobyte', 'quobyte'], ['cephfs', 'cephFS'],
  ['iscsi', 'iscsi'], ['cinder', 'cinder'], ['fc', 'fc'], ['flexVolume', ''], ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'], ['photonPersistentDisk', 'photonPersistentDisk'], ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'], ['scaleIO', 'scaleIO'], ['local', 'local'], ['storageos', 'storageos'], ['csi', 'csi'],
];
/** Go names that are not the JSON name capitalized. */
const GO_SOURCE_NAMES: Record<string, string> = {
  awsElasticBlockStore: 'AWSElasticBlockStore', gcePersistentDisk: 'GCEPersistentDisk', nfs: 'NFS', rbd: 'RBD', iscsi: 'ISCSI',
  cephfs: 'CephFS', fc: 'FC', scaleIO: 'ScaleIO', storageos: 'StorageOS', csi: 'CSI',
};
const CSI_SECRET_REFS = ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef'];

/** %#v of a core.ResourceList (map keys sorted, as fmt prints maps). */
const goResourceList = (v: unknown): string => {
  if (!isObj(v)) return 'core.ResourceList(nil)';
  return `core.ResourceList{${Object.keys(v).sort().map((k) => `${goQuote(k)}:${goQuantity(v[k])}`).join(', ')}}`;
};

function checkHostPath(causes: StatusCause[], s: KubeObject, path: string): void {
  if (!checkLocal(causes, s, path)) return;
  if (typeof s.type === 'string' && !HOST_PATH_TYPES.includes(s.type)) causes.push(notSupported(`${path}.type`, s.type, HOST_PATH_TYPES));
}

function checkNFS(causes: StatusCause[], s: KubeObject, path: string): void {
  if (!str(s.server)) causes.push(required(`${path}.server`));
  const p = str(s.path);
  if (!p) causes.push(required(`${path}.path`));
  if (!p.startsWith('/')) causes.push(invalidValue(`${path}.path`, p, 'must be an absolute path'));
}

/** A path given, without backsteps; false when it is missing (nothing more is checked then). */
function checkLocal(causes: StatusCause[], s: KubeObject, path: string): boolean {
  const p = str(s.path);
  if (!p) {
    causes.push(required(`${path}.path`));
    return false;
  }
  checkNoBacksteps(causes, `${path}.path`, p);
  return true;
}

/** validatePVSecretReference. */
function checkSecretRef(causes: StatusCause[], ref: KubeObject, path: string): void {
  const name = str(ref.name);
  if (!name) causes.push(required(`${path}.name`));
  else for (const m of isDNS1123Subdomain(name)) causes.push(invalidValue(`${path}.name`, name, m));
  const ns = str(ref.namespace);
  if (!ns) causes.push(required(`${path}.namespace`));
  else for (const m of isDNS1123Label(ns)) causes.push(invalidValue(`${path}.namespace`, ns, m));
}

/** A secretRef's namespace given (the PersistentVolume sources' SecretReference, where the pod volume's has none). */
function requireSecretNamespace(causes: StatusCause[], s: KubeObject, path: string): void {
  if (isObj(s.secretRef) && !str(s.secretRef.namespace)) causes.push(required(`${path}.secretRef.namespace`));
}

/** validateGlusterfsPersistentVolumeSource: the pod volume's rules, and an endpointsNamespace set that is a namespace name. */
function checkGlusterfsPV(causes: StatusCause[], s: KubeObject, path: string): void {
  checkGlusterfs(causes, s, path, requireField);
  const ns = s.endpointsNamespace;
  if (typeof ns !== 'string') return;
  if (!ns) causes.push(invalidValue(`${path}.endpointsNamespace`, ns, 'if the endpointnamespace is set, it must be a valid namespace name'));
  else for (const m of isDNS1123Label(ns)) causes.push(invalidValue(`${path}.endpointsNamespace`, ns, m));
}

/** validateAzureFilePV: the pod volume's rules, and a secretNamespace set that is not empty. */
function checkAzureFilePV(causes: StatusCause[], s: KubeObject, path: string): void {
  checkAzureFile(causes, s, path, requireField);
  if (s.secretNamespace === '') causes.push(required(`${path}.secretNamespace`));
}

/** Core's ValidateCSIDriverName: given, at most 63 characters, a DNS subdomain once lower-cased (a CSIDriver's, a CSINode driver's and a VolumeAttachment attacher's too). */
export function checkCSIDriverName(causes: StatusCause[], driver: string, path: string): void {
  if (!driver) causes.push(required(path));
  if (driver.length > 63) causes.push(tooLong(path, 63));
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) causes.push(invalidValue(path, driver, m));
}

/** validateCSIPersistentVolumeSource. */
function checkCSI(causes: StatusCause[], s: KubeObject, path: string): void {
  checkCSIDriverName(causes, str(s.driver), `${path}.driver`);
  if (!str(s.volumeHandle)) causes.push(required(`${path}.volumeHandle`));
  for (const ref of CSI_SECRET_REFS) if (isObj(s[ref])) checkSecretRef(causes, s[ref], `${path}.${ref}`);
}

/** Each source's own rules: the source, where it is checked, the volume's name. */
type PersistentVolumeSourceCheck = (causes: StatusCause[], s: KubeObject, path: string, pvName: string) => void;
const SOURCE_CHECKS: Record<string, PersistentVolumeSourceCheck> = {
  hostPath: checkHostPath,
  // upstream checks it at <spec>.persistentDisk
  gcePersistentDisk: (causes, s, path) => checkGCEPersistentDisk(causes, s, path.replace(/gcePersistentDisk$/, 'persistentDisk')),
  awsElasticBlockStore: (causes, s, path) => checkAWSElasticBlockStore(causes, s, path, requireField),
  glusterfs: checkGlusterfsPV,
  flocker: checkFlocker,
  nfs: checkNFS,
  rbd: (causes, s, path) => checkRBD(causes, s, path, requireField),
  quobyte: (causes, s, path) => checkQuobyte(causes, s, path, requireField),
  cephfs: (causes, s, path) => checkCephFS(causes, s, path),
  iscsi: (causes, s, path, name) => checkIscsi(causes, s, path, { name }),
  cinder: (causes, s, path) => {
    checkCinder(causes, s, path, requireField);
    requireSecretNamespace(causes, s, path);
  },
  fc: checkFC,
  flexVolume: (causes, s, path) => checkFlex(causes, s, path, requireField),
  azureFile: checkAzureFilePV,
  vsphereVolume: (causes, s, path) => checkVsphereVolume(causes, s, path, requireField),
  photonPersistentDisk: (causes, s, path) => checkPhotonPersistentDisk(causes, s, path, requireField),
  portworxVolume: (causes, s, path) => checkPortworxVolume(causes, s, path, requireField),
  azureDisk: (causes, s, path) => checkAzureDisk(causes, s, path, requireField),
  scaleIO: (causes, s, path) => checkScaleIO(causes, s, path, requireField),
  local: checkLocal,
  storageos: (causes, s, path) => {
    checkStorageOS(causes, s, path);
    requireSecretNamespace(causes, s, path);
  },
  csi: checkCSI,
};

/** Where a spec is checked: a PersistentVolume's at `spec`, a VolumeAttachment's inline one at its own path (`inline`). */
export interface PersistentVolumeSpecContext {
  path?: string;
  /** upstream's validateInlinePersistentVolumeSpec: a CSI source alone, no capacity, claim, class or node affinity. */
  inline?: boolean;
}

const INLINE_FORBIDDEN = 'may not be specified in the context of inline volumes';

/** ValidatePersistentVolumeSpec of the volume named `name` (its iSCSI source's portal is checked with the name). */
export function validatePersistentVolumeSpec(specValue: unknown, name = '', { path = 'spec', inline = false }: PersistentVolumeSpecContext = {}): StatusCause[] {
  const spec = isObj(specValue) ? specValue : {};
  const causes: StatusCause[] = [];
  const capacity = isObj(spec.capacity) ? spec.capacity : undefined;
  const names = capacity ? Object.keys(capacity) : [];
  if (inline) {
    if (spec.claimRef != null) causes.push(forbidden(`${path}.claimRef`, INLINE_FORBIDDEN));
    if (names.length !== 0) causes.push(forbidden(`${path}.capacity`, INLINE_FORBIDDEN));
    if (!isObj(spec.csi)) causes.push(required(`${path}.csi`, 'has to be specified in the context of inline volumes'));
  }
  const modes = list(spec.accessModes);
  if (modes.length === 0) causes.push(required(`${path}.accessModes`));
  let oncePod = false;
  let others = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode as string)) causes.push(notSupported(`${path}.accessModes`, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') oncePod = true;
    else if (ACCESS_MODES.includes(mode as string)) others = true;
  }
  if (oncePod && others) causes.push(forbidden(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));

  if (!inline) {
    if (names.length === 0) causes.push(required(`${path}.capacity`));
    if (!capacity || !Object.hasOwn(capacity, 'storage') || names.length > 1) {
      causes.push(notSupportedRendered(`${path}.capacity`, goResourceList(spec.capacity), ['storage']));
    }
    for (const name of names) {
      const q = quantityOf(capacity![name]);
      if (!q) continue;
      const at = `${path}.capacity[${name}]`;
      const value = quantityValue(q);
      if (value < 0) causes.push(invalidValue(at, value, 'must be a valid resource quantity'));
      if (compareQuantity(q, ZERO) <= 0) causes.push(invalidValue(at, formatQuantity(q), 'must be greater than zero'));
    }
  }

  const reclaim = str(spec.persistentVolumeReclaimPolicy);
  if (reclaim && inline && reclaim !== 'Retain') causes.push(forbidden(`${path}.persistentVolumeReclaimPolicy`, 'may only be Retain in the context of inline volumes'));
  else if (reclaim && !inline && !RECLAIM_POLICIES.includes(reclaim)) causes.push(notSupported(`${path}.persistentVolumeReclaimPolicy`, reclaim, RECLAIM_POLICIES));

  let nodeAffinity = false;
  if (isObj(spec.nodeAffinity)) {
    if (inline) causes.push(forbidden(`${path}.nodeAffinity`, INLINE_FORBIDDEN));
    else {
      nodeAffinity = true;
      if (isObj(spec.nodeAffinity.required)) checkNodeSelector(causes, spec.nodeAffinity.required, `${path}.nodeAffinity.required`);
      else causes.push(required(`${path}.nodeAffinity.required`, 'must specify required node constraints'));
    }
  }

  let sources = 0;
  for (const [key, refusedAt] of SOURCES) {
    const source: unknown = spec[key];
    if (!isObj(source)) continue;
    if (sources > 0 && refusedAt !== '') {
      causes.push(forbidden(`${path}.${refusedAt}`, MORE_THAN_ONE));
      continue;
    }
    sources++;
    SOURCE_CHECKS[key]!(causes, source, `${path}.${key}`, name);
    if (key === 'local' && !nodeAffinity) causes.push(required(`${path}.nodeAffinity`, 'Local volume requires node affinity'));
  }
  if (sources === 0) causes.push(required(path, 'must specify a volume type'));

  const hostPath = isObj(spec.hostPath) ? str(spec.hostPath.path) : '';
  if (hostPath.startsWith('/') && posix.normalize(hostPath).replace(/\/+$/, '') === '' && reclaim === 'Recycle') {
    causes.push(forbidden(`${path}.persistentVolumeReclaimPolicy`, "may not be 'recycle' for a hostPath mount of '/'"));
  }
  const className = str(spec.storageClassName);
  if (className && inline) causes.push(forbidden(`${path}.storageClassName`, INLINE_FORBIDDEN));
  else if (className) for (const m of isDNS1123Subdomain(className)) causes.push(invalidValue(`${path}.storageClassName`, className, m));
  const mode = spec.volumeMode;
  if (mode !== undefined && mode !== null) {
    if (inline && mode !== 'Filesystem') causes.push(forbidden(`${path}.volumeMode`, 'may not specify volumeMode other than Filesystem in the context of inline volumes'));
    else if (!inline && !VOLUME_MODES.includes(mode)) causes.push(notSupported(`${path}.volumeMode`, mode, VOLUME_MODES));
  }
  return causes;
}

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
  validate: (pv) => validatePersistentVolumeSpec(pv.spec, str(pv.metadata?.name)),
  validateUpdate: validatePersistentVolumeUpdate,
  // of the new object on every update, as upstream
  warningsOnCreate: persistentVolumeWarnings,
  warningsOnUpdate: persistentVolumeWarnings,
};

/** core.PersistentVolumeSource's fields in Go's order, for the diff of the immutable-source error. */
const SOURCE_FIELDS: readonly GoField[] = [
  'gcePersistentDisk', 'awsElasticBlockStore', 'hostPath', 'glusterfs', 'nfs', 'rbd', 'quobyte', 'iscsi', 'flexVolume', 'cinder',
  'cephfs', 'fc', 'flocker', 'azureFile', 'vsphereVolume', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO',
  'local', 'storageos', 'csi',
].map((json) => ({ json, name: GO_SOURCE_NAMES[json] ?? `${json.charAt(0).toUpperCase()}${json.slice(1)}`, render: goNested(true) }));

/** ValidatePersistentVolumeUpdate's own rules (the spec's are validate's). */
function validatePersistentVolumeUpdate(pv: KubeObject, old: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const sourceOf = (spec: KubeObject): Record<string, unknown> => Object.fromEntries(SOURCE_FIELDS.filter((f) => spec[f.json] != null).map((f) => [f.json, spec[f.json]]));
  const prev = sourceOf(isObj(old.spec) ? old.spec : {});
  const next = sourceOf(isObj(pv.spec) ? pv.spec : {});
  // a CSI volume may gain the secret for controller expansion
  if (isObj(prev.csi) && prev.csi.controllerExpandSecretRef == null && isObj(next.csi) && next.csi.controllerExpandSecretRef != null) {
    const { controllerExpandSecretRef: _added, ...csi } = next.csi;
    next.csi = csi;
  }
  if (!jsonEqual(prev, next)) {
    const diff = goStructDiff('core.PersistentVolumeSource', SOURCE_FIELDS, prev, next);
    causes.push(forbidden('spec.persistentvolumesource', `spec.persistentvolumesource is immutable after creation\n${diff}`));
  }
  const mode = pv.spec?.volumeMode ?? null;
  if (mode !== (old.spec?.volumeMode ?? null)) causes.push(invalidValue('volumeMode', mode, 'field is immutable'));
  const affinity = old.spec?.nodeAffinity;
  if (affinity != null && !jsonEqual(affinity, pv.spec?.nodeAffinity ?? null)) {
    const now = pv.spec?.nodeAffinity;
    const rendered = isObj(now) ? `core.VolumeNodeAffinity{Required:${goPointer('core.NodeSelector', now.required != null)}}` : 'null';
    causes.push(invalidRendered('nodeAffinity', rendered, 'field is immutable'));
  }
  return causes;
}
