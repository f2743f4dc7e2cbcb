// A pod spec's volumes, as upstream's ValidateVolumes and validateVolumeSource check them
// (pkg/apis/core/validation/validation.go): a name that is a unique DNS label, exactly one source, and each source's
// own rules. Field paths keep upstream's quirks (gcePersistentDisk checked under `persistentDisk`, a second
// downwardAPI source refused at `downwarAPI`, a downwardAPI file's errors on the source, not the item).
//
// Sources gated off in 1.32 by default (image volumes, clusterTrustBundle projections) are dropped by upstream
// before validation: they count as no source here.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, forbidden, invalidValue, notSupported, required, tooLong } from '../../apimachinery/field.js';
import { validateLabelSelector, type LabelSelector } from '../../apimachinery/labels.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/names.js';
import { validateAnnotations, validateLabels } from '../../apimachinery/objectmeta.js';
import { parseQuantity, formatQuantity } from '../../apimachinery/quantity.js';
import { checkObjectFieldSelector, checkResourceFieldSelector, VOLUME_FIELD_PATHS } from './downward-api.js';
import {
  checkDNSLabel, checkDNSSubdomain, checkLocalDescendingPath, checkLocalNonReservedPath, checkNoBacksteps, inclusiveRange,
  invalidRaw, isObj, list, num, requireSchemaField, str,
} from './field-checks.js';

const MORE_THAN_ONE = 'may not specify more than 1 volume type';
export const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';
const PARTITION_ERROR = inclusiveRange(1, 255);
const LUN_ERROR = inclusiveRange(0, 255);

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const HOST_PATH_TYPE_SET = new Set(HOST_PATH_TYPES);
const AZURE_CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const AZURE_DISK_KINDS = ['Dedicated', 'Managed', 'Shared'];
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const ACCESS_MODE_SET = new Set(ACCESS_MODES);
const VOLUME_MODES = ['Block', 'Filesystem'];

const ISCSI_IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9.-]+)(:[^,;*&$|\t\n\f\r ]+)$/;
const ISCSI_EUI = /^eui.[A-Za-z0-9]{16}$/;
const ISCSI_NAA = /^naa.[A-Za-z0-9]{32}$/;

const ISCSI_TOO_LONG = 'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.';

/** The volumes of a pod spec: each declared name that passed its checks, with its volume. */
export type VolumeMap = Map<string, KubeObject>;

/**
 * How a source's checker says that a string field the schema requires is empty. A pod volume's checkers leave a
 * missing one to the schema check (requireSchemaField), which says it ahead of the pod's own causes; a
 * PersistentVolume's say it themselves (requireField), in its place among the spec's causes as upstream orders them,
 * and the schema check's bare "Required value" for the same field is then dropped (generic/validate.ts).
 */
export type RequireField = (causes: StatusCause[], path: string, raw: unknown) => void;
export const requireField: RequireField = (causes, path) => { causes.push(required(path)); };

/** The checker of a source shared by pod volumes and PersistentVolumes: its causes at `path`. */
export type SourceCheck = (causes: StatusCause[], s: KubeObject, path: string, req?: RequireField) => void;

/** A source whose one rule is that the string field `key` is given. */
const requiring = (key: string): SourceCheck => (causes, s, path, req = requireSchemaField) => {
  if (!str(s[key])) req(causes, `${path}.${key}`, s[key]);
};
/** validateVsphereVolumeSource. */
export const checkVsphereVolume = requiring('volumePath');
/** validatePhotonPersistentDiskVolumeSource. */
export const checkPhotonPersistentDisk = requiring('pdID');
/** validatePortworxVolumeSource. */
export const checkPortworxVolume = requiring('volumeID');

const checkMode = (causes: StatusCause[], path: string, mode: unknown): void => {
  const m = num(mode);
  if (m !== undefined && (m > 0o777 || m < 0)) causes.push(invalidValue(path, m, FILE_MODE_ERROR));
};

/** validateKeyToPath. */
function checkKeyToPath(causes: StatusCause[], kp: KubeObject, path: string): void {
  const p = str(kp.path);
  if (!str(kp.key)) requireSchemaField(causes, `${path}.key`, kp.key);
  if (!p) requireSchemaField(causes, `${path}.path`, kp.path);
  checkLocalNonReservedPath(causes, `${path}.path`, p);
  checkMode(causes, `${path}.mode`, kp.mode);
}

/** validateDownwardAPIVolumeFile: note upstream reports at the source's path, not the item's. */
function checkDownwardAPIFile(causes: StatusCause[], file: KubeObject, path: string): void {
  const p = str(file.path);
  if (!p) causes.push(required(`${path}.path`));
  checkLocalNonReservedPath(causes, `${path}.path`, p);
  if (isObj(file.fieldRef)) {
    checkObjectFieldSelector(causes, file.fieldRef, VOLUME_FIELD_PATHS, `${path}.fieldRef`);
    if (isObj(file.resourceFieldRef)) causes.push(invalidValue(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isObj(file.resourceFieldRef)) {
    checkResourceFieldSelector(causes, file.resourceFieldRef, `${path}.resourceFieldRef`, true);
  } else {
    causes.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  checkMode(causes, `${path}.mode`, file.mode);
}

function checkItems(causes: StatusCause[], items: unknown, path: string): void {
  list(items).forEach((kp, i) => { if (isObj(kp)) checkKeyToPath(causes, kp, `${path}.items[${i}]`); });
}

function checkHostPath(causes: StatusCause[], s: KubeObject, path: string): void {
  const p = str(s.path);
  if (!p) {
    requireSchemaField(causes, `${path}.path`, s.path);
    return;
  }
  checkNoBacksteps(causes, `${path}.path`, p);
  if (typeof s.type === 'string' && !HOST_PATH_TYPE_SET.has(s.type)) causes.push(notSupported(`${path}.type`, s.type, HOST_PATH_TYPES));
}

function checkPartition(causes: StatusCause[], path: string, v: unknown): void {
  const p = num(v) ?? 0;
  if (p < 0 || p > 255) causes.push(invalidValue(path, p, PARTITION_ERROR));
}

/** validateGCEPersistentDiskVolumeSource (upstream checks it at `persistentDisk`: its callers pass that path). */
export const checkGCEPersistentDisk: SourceCheck = (causes, s, path) => {
  if (!str(s.pdName)) causes.push(required(`${path}.pdName`));
  checkPartition(causes, `${path}.partition`, s.partition);
};

/** validateAWSElasticBlockStoreVolumeSource. */
export const checkAWSElasticBlockStore: SourceCheck = (causes, s, path, req = requireSchemaField) => {
  if (!str(s.volumeID)) req(causes, `${path}.volumeID`, s.volumeID);
  checkPartition(causes, `${path}.partition`, s.partition);
};

/** The rules validateGlusterfsVolumeSource and validateGlusterfsPersistentVolumeSource share. */
export const checkGlusterfs: SourceCheck = (causes, s, path, req = requireSchemaField) => {
  if (!str(s.endpoints)) req(causes, `${path}.endpoints`, s.endpoints);
  if (!str(s.path)) req(causes, `${path}.path`, s.path);
};

/** validateRBDVolumeSource, and validateRBDPersistentVolumeSource (the same rules). */
export const checkRBD: SourceCheck = (causes, s, path, req = requireSchemaField) => {
  if (list(s.monitors).length === 0) causes.push(required(`${path}.monitors`));
  if (!str(s.image)) req(causes, `${path}.image`, s.image);
};

/** The rules validateCinderVolumeSource and validateCinderPersistentVolumeSource share. */
export const checkCinder: SourceCheck = (causes, s, path, req = requireSchemaField) => {
  if (!str(s.volumeID)) req(causes, `${path}.volumeID`, s.volumeID);
  if (isObj(s.secretRef) && !str(s.secretRef.name)) causes.push(required(`${path}.secretRef.name`));
};

/** validateCephFSVolumeSource, and validateCephFSPersistentVolumeSource (the same rule). */
export const checkCephFS: SourceCheck = (causes, s, path) => {
  if (list(s.monitors).length === 0) causes.push(required(`${path}.monitors`));
};

/** The rules validateAzureFile and validateAzureFilePV share. */
export const checkAzureFile: SourceCheck = (causes, s, path, req = requireSchemaField) => {
  if (!str(s.secretName)) req(causes, `${path}.secretName`, s.secretName);
  if (!str(s.shareName)) req(causes, `${path}.shareName`, s.shareName);
};

/** validateScaleIOVolumeSource, and validateScaleIOPersistentVolumeSource (the same rules). */
export const checkScaleIO: SourceCheck = (causes, s, path, req = requireSchemaField) => {
  if (!str(s.gateway)) req(causes, `${path}.gateway`, s.gateway);
  if (!str(s.system)) req(causes, `${path}.system`, s.system);
  if (!str(s.volumeName)) causes.push(required(`${path}.volumeName`));
};

/** An iSCSI IQN or initiator name: iqn.*, eui.* or naa.* in its format; `badPrefix` says what starts otherwise. */
function checkIscsiName(causes: StatusCause[], path: string, v: string, badPrefix: string): void {
  const format = v.startsWith('iqn') ? ISCSI_IQN : v.startsWith('eui') ? ISCSI_EUI : v.startsWith('naa') ? ISCSI_NAA : undefined;
  if (!format) causes.push(invalidValue(path, v, badPrefix));
  else if (!format.test(v)) causes.push(invalidValue(path, v, 'must be valid format'));
}

/**
 * validateISCSIVolumeSource; given the PersistentVolume's name, validateISCSIPersistentVolumeSource: the same rules
 * but for a name of no known prefix (a bare "must be valid format"), the `<volume name>:<targetPortal>` length checked
 * here (at `targetportal`, as upstream), a secretRef's name required, and every empty field said (requireField).
 */
export function checkIscsi(causes: StatusCause[], s: KubeObject, path: string, pv?: { name: string }): void {
  const req = pv ? requireField : requireSchemaField;
  const badPrefix = pv ? 'must be valid format' : 'must be valid format starting with iqn, eui, or naa';
  const portal = str(s.targetPortal);
  if (!portal) req(causes, `${path}.targetPortal`, s.targetPortal);
  if (pv && typeof s.initiatorName === 'string' && `${pv.name}:${portal}`.length > 64) {
    causes.push(invalidValue(`${path}.targetportal`, portal, ISCSI_TOO_LONG));
  }
  const iqn = str(s.iqn);
  if (!iqn) req(causes, `${path}.iqn`, s.iqn);
  else checkIscsiName(causes, `${path}.iqn`, iqn, badPrefix);
  const lun = num(s.lun) ?? 0;
  if (lun < 0 || lun > 255) causes.push(invalidValue(`${path}.lun`, lun, LUN_ERROR));
  if ((s.chapAuthDiscovery === true || s.chapAuthSession === true) && !isObj(s.secretRef)) causes.push(required(`${path}.secretRef`));
  if (pv && isObj(s.secretRef) && !str(s.secretRef.name)) causes.push(required(`${path}.secretRef.name`));
  if (typeof s.initiatorName === 'string') checkIscsiName(causes, `${path}.initiatorname`, s.initiatorName, badPrefix);
}

/** validateFCVolumeSource. */
export function checkFC(causes: StatusCause[], s: KubeObject, path: string): void {
  const wwns = list(s.targetWWNs);
  const wwids = list(s.wwids);
  if (wwns.length < 1 && wwids.length < 1) causes.push(required(`${path}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) causes.push(invalidValue(`${path}.targetWWNs`, wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    const lun = num(s.lun);
    if (lun === undefined) causes.push(required(`${path}.lun`, 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) causes.push(invalidValue(`${path}.lun`, lun, LUN_ERROR));
  }
}

/** Go's net.SplitHostPort succeeding. */
function isHostPort(s: string): boolean {
  const colon = s.lastIndexOf(':');
  if (colon < 0) return false;
  let j = 0;
  let k = 0;
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    if (end < 0 || end + 1 !== colon) return false;
    j = 1;
    k = end + 1;
  } else if (s.slice(0, colon).includes(':')) return false;
  return !s.slice(j).includes('[') && !s.slice(k).includes(']');
}

/** validateQuobyteVolumeSource. */
export function checkQuobyte(causes: StatusCause[], s: KubeObject, path: string, req: RequireField = requireSchemaField): void {
  const registry = str(s.registry);
  const hostPorts = 'must be a host:port pair or multiple pairs separated by commas';
  if (!registry) causes.push(required(`${path}.registry`, hostPorts));
  else if (str(s.tenant).length >= 65) causes.push(required(`${path}.tenant`, 'must be a UUID and may not exceed a length of 64 characters'));
  else {
    for (const pair of registry.split(',')) if (!isHostPort(pair)) causes.push(invalidValue(`${path}.registry`, registry, hostPorts));
  }
  if (!str(s.volume)) req(causes, `${path}.volume`, s.volume);
}

/** validateFlockerVolumeSource. */
export function checkFlocker(causes: StatusCause[], s: KubeObject, path: string): void {
  const name = str(s.datasetName);
  const uuid = str(s.datasetUUID);
  if (!name && !uuid) causes.push(required(path, 'one of datasetName and datasetUUID is required'));
  if (name && uuid) causes.push(invalidValue(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) causes.push(invalidValue(`${path}.datasetName`, name, "must not contain '/'"));
}

/** validateFlexVolumeSource, and validateFlexPersistentVolumeSource (the same rules). */
export function checkFlex(causes: StatusCause[], s: KubeObject, path: string, req: RequireField = requireSchemaField): void {
  if (!str(s.driver)) req(causes, `${path}.driver`, s.driver);
  if (!isObj(s.options)) return;
  for (const k of Object.keys(s.options)) {
    const slash = k.indexOf('/');
    const ns = `.${(slash >= 0 ? k.slice(0, slash) : k).toLowerCase()}`;
    if (ns.endsWith('.kubernetes.io') || ns.endsWith('.k8s.io')) causes.push(invalidValue(`${path}.options[${k}]`, k, 'kubernetes.io and k8s.io namespaces are reserved'));
  }
}

/** validateAzureDisk. */
export function checkAzureDisk(causes: StatusCause[], s: KubeObject, path: string, req: RequireField = requireSchemaField): void {
  const uri = str(s.diskURI);
  if (!str(s.diskName)) req(causes, `${path}.diskName`, s.diskName);
  if (!uri) req(causes, `${path}.diskURI`, s.diskURI);
  if (typeof s.cachingMode === 'string' && !AZURE_CACHING_MODES.includes(s.cachingMode)) causes.push(notSupported(`${path}.cachingMode`, s.cachingMode, AZURE_CACHING_MODES));
  if (typeof s.kind === 'string') {
    if (!AZURE_DISK_KINDS.includes(s.kind)) causes.push(notSupported(`${path}.kind`, s.kind, AZURE_DISK_KINDS));
    if (s.kind === 'Managed' && !uri.startsWith('/subscriptions/')) {
      causes.push(notSupported(`${path}.diskURI`, uri, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
    }
    if (s.kind !== 'Managed' && !uri.startsWith('https://')) {
      causes.push(notSupported(`${path}.diskURI`, uri, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
    }
  }
}

/** The rules validateStorageOSVolumeSource and validateStorageOSPersistentVolumeSource share. */
export function checkStorageOS(causes: StatusCause[], s: KubeObject, path: string): void {
  const name = str(s.volumeName);
  if (!name) causes.push(required(`${path}.volumeName`));
  else checkDNSLabel(causes, `${path}.volumeName`, name);
  const ns = str(s.volumeNamespace);
  if (ns) checkDNSLabel(causes, `${path}.volumeNamespace`, ns);
  if (isObj(s.secretRef) && !str(s.secretRef.name)) causes.push(required(`${path}.secretRef.name`));
}

function checkCSI(causes: StatusCause[], s: KubeObject, path: string): void {
  // ValidateCSIDriverName
  const driver = str(s.driver);
  if (!driver) requireSchemaField(causes, `${path}.driver`, s.driver);
  if (driver.length > 63) causes.push(tooLong(`${path}.driver`, 63));
  for (const m of isDNS1123Subdomain(driver.toLowerCase())) causes.push(invalidValue(`${path}.driver`, driver, m));
  if (isObj(s.nodePublishSecretRef)) {
    const name = str(s.nodePublishSecretRef.name);
    if (!name) causes.push(required(`${path}.nodePublishSecretRef.name`));
    else checkDNSSubdomain(causes, `${path}.name`, name); // upstream's path
  }
}

/** validateProjectionSources: one source per entry, no path twice across them. */
function checkProjected(causes: StatusCause[], s: KubeObject, path: string): void {
  checkMode(causes, `${path}.defaultMode`, s.defaultMode);
  const paths = new Set<string>();
  const claim = (p: string, value: string): void => {
    if (!paths.has(p)) paths.add(p);
    else causes.push(invalidValue(path, value, 'conflicting duplicate paths'));
  };
  list(s.sources).forEach((source, i) => {
    if (!isObj(source)) return;
    const at = `${path}.sources[${i}]`;
    let n = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const ref = source[kind];
      if (!isObj(ref)) continue;
      n++;
      const name = str(ref.name);
      if (!name) causes.push(required(`${at}.${kind}.name`));
      list(ref.items).forEach((kp, j) => {
        if (!isObj(kp)) return;
        checkKeyToPath(causes, kp, `${at}.${kind}.items[${j}]`);
        const p = str(kp.path);
        if (p) claim(p, name);
      });
    }
    if (isObj(source.downwardAPI)) {
      n++;
      for (const file of list(source.downwardAPI.items)) {
        if (!isObj(file)) continue;
        checkDownwardAPIFile(causes, file, `${at}.downwardAPI`);
        const p = str(file.path);
        if (p) claim(p, p);
      }
    }
    if (isObj(source.serviceAccountToken)) {
      n++;
      const sat = source.serviceAccountToken;
      const seconds = num(sat.expirationSeconds) ?? 0;
      if (seconds < 600) causes.push(invalidValue(`${at}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) causes.push(invalidValue(`${at}.serviceAccountToken.expirationSeconds`, seconds, 'may not specify a duration larger than 2^32 seconds'));
      const p = str(sat.path);
      if (!p) causes.push(required(`${path}.path`));
      else checkLocalNonReservedPath(causes, `${path}.path`, p);
    }
    if (n > 1) causes.push(forbidden(at, 'may not specify more than 1 volume type per source'));
  });
}

const GO_OBJECT_META_FIELDS: readonly [json: string, goName: string][] = [
  ['name', 'name'], ['generateName', 'generateName'], ['namespace', 'namespace'], ['selfLink', 'selfLink'], ['uid', 'uID'],
  ['resourceVersion', 'resourceVersion'], ['generation', 'generation'], ['creationTimestamp', 'creationTimestamp'],
  ['deletionTimestamp', 'deletionTimestamp'], ['deletionGracePeriodSeconds', 'deletionGracePeriodSeconds'],
  ['ownerReferences', 'ownerReferences'], ['finalizers', 'finalizers'], ['managedFields', 'managedFields'],
];

/** ValidateTemplateObjectMeta: labels and annotations only; anything else "cannot be set". */
function checkTemplateMeta(causes: StatusCause[], meta: KubeObject, path: string): void {
  causes.push(...validateAnnotations(isObj(meta.annotations) ? meta.annotations : undefined, `${path}.annotations`));
  causes.push(...validateLabels(isObj(meta.labels) ? meta.labels : undefined, `${path}.labels`));
  for (const [json, goName] of GO_OBJECT_META_FIELDS) {
    const v = meta[json];
    if (v !== undefined && v !== null && v !== '' && v !== 0) causes.push(forbidden(`${path}.${goName}`, 'cannot be set'));
  }
}

/** validateDataSource / validateDataSourceRef. */
function checkDataSource(causes: StatusCause[], ds: KubeObject, path: string, isRef: boolean): void {
  const kind = str(ds.kind);
  const apiGroup = str(ds.apiGroup);
  if (!str(ds.name)) causes.push(required(`${path}.name`));
  if (!kind) causes.push(required(`${path}.kind`));
  if (!apiGroup && kind !== 'PersistentVolumeClaim') causes.push(invalidValue(path, kind, "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  if (apiGroup) checkDNSSubdomain(causes, `${path}.apiGroup`, apiGroup);
  const ns = str(ds.namespace);
  if (isRef && ns) for (const m of isDNS1123Label(ns)) causes.push(invalidValue(`${path}.namespace`, ns, m));
}

/** ValidatePersistentVolumeClaimSpec, as a volumeClaimTemplate's spec is checked (VolumeAttributesClass off in 1.32). */
function checkClaimSpec(causes: StatusCause[], spec: KubeObject, path: string): void {
  const modes = list(spec.accessModes);
  if (modes.length === 0) causes.push(required(`${path}.accessModes`, 'at least 1 access mode is required'));
  if (isObj(spec.selector)) causes.push(...validateLabelSelector(spec.selector as LabelSelector, `${path}.selector`));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (typeof mode !== 'string' || !ACCESS_MODE_SET.has(mode)) causes.push(notSupported(`${path}.accessModes`, mode, ACCESS_MODES));
    else if (mode === 'ReadWriteOncePod') rwop = true;
    else other = true;
  }
  if (rwop && other) causes.push(forbidden(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const storage = isObj(spec.resources) && isObj(spec.resources.requests) ? spec.resources.requests.storage : undefined;
  if (storage === undefined || storage === null) causes.push(required(`${path}.resources[storage]`));
  else {
    try {
      const q = parseQuantity(String(storage));
      if (q.nanos <= 0n) causes.push(invalidValue(`${path}.resources[storage]`, formatQuantity(q), 'must be greater than zero'));
    } catch { /* the decoder refuses a malformed quantity */ }
  }
  const scName = str(spec.storageClassName);
  if (scName) checkDNSSubdomain(causes, `${path}.storageClassName`, scName);
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) causes.push(notSupported(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  const ds = isObj(spec.dataSource) ? spec.dataSource : undefined;
  const ref = isObj(spec.dataSourceRef) ? spec.dataSourceRef : undefined;
  if (ds) checkDataSource(causes, ds, `${path}.dataSource`, false);
  if (ref) checkDataSource(causes, ref, `${path}.dataSourceRef`, true);
  if (ref && str(ref.namespace)) {
    if (ds) causes.push(invalidRaw(path, `${path}.dataSource`, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (ds && ref && ((ds.apiGroup ?? undefined) !== (ref.apiGroup ?? undefined) || str(ds.kind) !== str(ref.kind) || str(ds.name) !== str(ref.name))) {
    causes.push(invalidRaw(path, `${path}.dataSource`, 'must match dataSourceRef'));
  }
}

function checkEphemeral(causes: StatusCause[], s: KubeObject, path: string): void {
  const t = s.volumeClaimTemplate;
  if (!isObj(t)) {
    causes.push(required(`${path}.volumeClaimTemplate`));
    return;
  }
  const at = `${path}.volumeClaimTemplate`;
  if (isObj(t.metadata)) checkTemplateMeta(causes, t.metadata, `${at}.metadata`);
  checkClaimSpec(causes, isObj(t.spec) ? t.spec : {}, `${at}.spec`);
}

/** validateVolumeSource: exactly one source, each checked. */
function checkVolumeSource(causes: StatusCause[], v: KubeObject, path: string, name: string): void {
  let n = 0;
  /** Whether the source `key` (refused at `refusedAt` if a second one) is the volume's first. */
  const first = (key: string, refusedAt = key): boolean => {
    if (n > 0) {
      causes.push(forbidden(`${path}.${refusedAt}`, MORE_THAN_ONE));
      return false;
    }
    n++;
    return true;
  };
  let s: unknown;
  if (isObj(s = v.emptyDir)) {
    n++;
    if (s.sizeLimit !== undefined && s.sizeLimit !== null) {
      try {
        if (parseQuantity(String(s.sizeLimit)).nanos < 0n) causes.push(forbidden(`${path}.emptyDir.sizeLimit`, 'SizeLimit field must be a valid resource quantity'));
      } catch { /* the decoder refuses a malformed quantity */ }
    }
  }
  if (isObj(s = v.hostPath) && first('hostPath')) checkHostPath(causes, s, `${path}.hostPath`);
  if (isObj(s = v.gitRepo) && first('gitRepo')) {
    if (!str(s.repository)) requireSchemaField(causes, `${path}.gitRepo.repository`, s.repository);
    checkLocalDescendingPath(causes, `${path}.gitRepo.directory`, str(s.directory));
  }
  if (isObj(s = v.gcePersistentDisk) && first('gcePersistentDisk')) checkGCEPersistentDisk(causes, s, `${path}.persistentDisk`);
  if (isObj(s = v.awsElasticBlockStore) && first('awsElasticBlockStore')) checkAWSElasticBlockStore(causes, s, `${path}.awsElasticBlockStore`);
  if (isObj(s = v.secret) && first('secret')) {
    if (!str(s.secretName)) causes.push(required(`${path}.secret.secretName`));
    checkMode(causes, `${path}.secret.defaultMode`, s.defaultMode);
    checkItems(causes, s.items, `${path}.secret`);
  }
  if (isObj(s = v.nfs) && first('nfs')) {
    const p = str(s.path);
    if (!str(s.server)) requireSchemaField(causes, `${path}.nfs.server`, s.server);
    if (!p) requireSchemaField(causes, `${path}.nfs.path`, s.path);
    if (!p.startsWith('/')) causes.push(invalidValue(`${path}.nfs.path`, p, 'must be an absolute path'));
  }
  if (isObj(s = v.iscsi)) {
    if (first('iscsi')) checkIscsi(causes, s, `${path}.iscsi`);
    if (typeof s.initiatorName === 'string' && `${name}:${str(s.targetPortal)}`.length > 64) causes.push(invalidValue(`${path}.name`, name, ISCSI_TOO_LONG));
  }
  if (isObj(s = v.glusterfs) && first('glusterfs')) checkGlusterfs(causes, s, `${path}.glusterfs`);
  if (isObj(s = v.flocker) && first('flocker')) checkFlocker(causes, s, `${path}.flocker`);
  if (isObj(s = v.persistentVolumeClaim) && first('persistentVolumeClaim')) {
    if (!str(s.claimName)) requireSchemaField(causes, `${path}.persistentVolumeClaim.claimName`, s.claimName);
  }
  if (isObj(s = v.rbd) && first('rbd')) checkRBD(causes, s, `${path}.rbd`);
  if (isObj(s = v.cinder) && first('cinder')) checkCinder(causes, s, `${path}.cinder`);
  if (isObj(s = v.cephfs) && first('cephfs', 'cephFS')) checkCephFS(causes, s, `${path}.cephfs`);
  if (isObj(s = v.quobyte) && first('quobyte')) checkQuobyte(causes, s, `${path}.quobyte`);
  if (isObj(s = v.downwardAPI) && first('downwardAPI', 'downwarAPI')) {
    checkMode(causes, `${path}.downwardAPI.defaultMode`, s.defaultMode);
    for (const file of list(s.items)) if (isObj(file)) checkDownwardAPIFile(causes, file, `${path}.downwardAPI`);
  }
  if (isObj(s = v.fc) && first('fc')) checkFC(causes, s, `${path}.fc`);
  if (isObj(s = v.flexVolume) && first('flexVolume')) checkFlex(causes, s, `${path}.flexVolume`);
  if (isObj(s = v.configMap) && first('configMap')) {
    if (!str(s.name)) causes.push(required(`${path}.configMap.name`));
    checkMode(causes, `${path}.configMap.defaultMode`, s.defaultMode);
    checkItems(causes, s.items, `${path}.configMap`);
  }
  if (isObj(s = v.azureFile) && first('azureFile')) checkAzureFile(causes, s, `${path}.azureFile`);
  if (isObj(s = v.vsphereVolume) && first('vsphereVolume')) checkVsphereVolume(causes, s, `${path}.vsphereVolume`);
  if (isObj(s = v.photonPersistentDisk) && first('photonPersistentDisk')) checkPhotonPersistentDisk(causes, s, `${path}.photonPersistentDisk`);
  if (isObj(s = v.portworxVolume) && first('portworxVolume')) checkPortworxVolume(causes, s, `${path}.portworxVolume`);
  if (isObj(s = v.azureDisk) && first('azureDisk')) checkAzureDisk(causes, s, `${path}.azureDisk`);
  if (isObj(s = v.storageos) && first('storageos')) checkStorageOS(causes, s, `${path}.storageos`);
  if (isObj(s = v.projected) && first('projected')) checkProjected(causes, s, `${path}.projected`);
  if (isObj(s = v.scaleIO) && first('scaleIO')) checkScaleIO(causes, s, `${path}.scaleIO`);
  if (isObj(s = v.csi) && first('csi')) checkCSI(causes, s, `${path}.csi`);
  if (isObj(s = v.ephemeral) && first('ephemeral')) checkEphemeral(causes, s, `${path}.ephemeral`);
  if (n === 0) causes.push(required(path, 'must specify a volume type'));
}

/**
 * ValidateVolumes: causes for `volumes` (the pod spec's, at `path`), and the map of the names that passed (a volume
 * with errors is left out, as upstream leaves it out: a container mounting it then names no volume).
 */
export function validateVolumes(volumes: unknown, path: string, causes: StatusCause[]): VolumeMap {
  const byName: VolumeMap = new Map();
  if (!Array.isArray(volumes)) return byName;
  for (let i = 0; i < volumes.length; i++) {
    const v: unknown = volumes[i];
    const at = `${path}[${i}]`;
    const start = causes.length;
    const vol = isObj(v) ? v : {};
    const name = str(vol.name);
    checkVolumeSource(causes, vol, at, name);
    if (!name) requireSchemaField(causes, `${at}.name`, vol.name);
    else checkDNSLabel(causes, `${at}.name`, name);
    if (byName.has(name)) causes.push(duplicate(`${at}.name`, name));
    if (causes.length === start && name) byName.set(name, vol);
  }
  return byName;
}

/**
 * The checks ValidateVolumes makes only of a pod (it knows the pod's name): an ephemeral volume's claim is named
 * <pod>-<volume>, which must be a valid name, and no persistentVolumeClaim volume may use such a claim.
 */
export function validatePodVolumeClaims(podName: string, volumes: unknown, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!podName || !Array.isArray(volumes)) return causes;
  const created = new Set<string>();
  for (const v of volumes) if (isObj(v) && isObj(v.ephemeral)) created.add(`${podName}-${str(v.name)}`);
  if (created.size === 0) return causes;
  volumes.forEach((v: unknown, i: number) => {
    if (!isObj(v)) return;
    const name = str(v.name);
    if (isObj(v.ephemeral) && name) {
      const pvc = `${podName}-${name}`;
      for (const m of isDNS1123Subdomain(pvc)) causes.push(invalidValue(`${path}[${i}].name`, name, `PVC name ${JSON.stringify(pvc)}: ${m}`));
    }
    if (isObj(v.persistentVolumeClaim) && created.has(str(v.persistentVolumeClaim.claimName))) {
      causes.push(invalidValue(`${path}[${i}].persistentVolumeClaim.claimName`, str(v.persistentVolumeClaim.claimName), 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return causes;
}
