// VolumeAttachments (upstream 1.32: pkg/apis/storage/validation ValidateVolumeAttachment, ValidateVolumeAttachmentV1
// and ValidateVolumeAttachmentUpdate, and pkg/registry/storage/volumeattachment): an attacher given; exactly one of
// persistentVolumeName and inlineVolumeSpec, the name not empty, the inline spec a PersistentVolume spec as inline
// volumes have them (a CSI source, no capacity, claim, class or node affinity); a nodeName that is a DNS subdomain;
// status metadata of at most 256 KiB and error messages of at most 1024 bytes (refused, as upstream, in the words of
// the 256 KiB limit). A create adds the v1 checks: the attacher a CSI driver name, the volume name a DNS subdomain.
// The spec never changes. Upstream validates an update's object twice (the strategy and ValidateVolumeAttachmentUpdate
// both call ValidateVolumeAttachment), a status update's too (its strategy inherits that ValidateUpdate), so their
// errors come twice, as here. A status write changes none of the metadata.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, required, tooLong } from '../../apimachinery/field.js';
import { isDNS1123Subdomain } from '../../apimachinery/names.js';
import { deepEqual } from '../../apimachinery/semantic-equal.js';
import { RESET_OBJECT_META_FOR_STATUS, type Strategy } from '../strategy.js';
import { isObj, str } from '../validation/field-checks.js';
import { goPointer, goQuote, goStruct, invalidRendered } from '../validation/go-values.js';
import { checkCSIDriverName, validatePersistentVolumeSpec } from './persistentvolumes.js';

const MAX_METADATA_SIZE = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;
const EXACTLY_ONE = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';

const specOf = (va: KubeObject): KubeObject => (isObj(va.spec) ? va.spec : {});
const sourceOf = (va: KubeObject): KubeObject => (isObj(specOf(va).source) ? specOf(va).source : {});

function validateSource(source: KubeObject, causes: StatusCause[]): void {
  const name = source.persistentVolumeName;
  const hasName = typeof name === 'string';
  const inline = isObj(source.inlineVolumeSpec);
  if (!hasName && !inline) causes.push(required('spec.source', EXACTLY_ONE));
  else if (hasName && inline) causes.push(forbidden('spec.source', EXACTLY_ONE));
  else if (hasName) {
    if (name === '') causes.push(required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName'));
  } else causes.push(...validatePersistentVolumeSpec(source.inlineVolumeSpec, '', { path: 'spec.source.inlineVolumeSpec', inline: true }));
}

function validateVolumeError(e: unknown, path: string, causes: StatusCause[]): void {
  if (!isObj(e)) return;
  if (Buffer.byteLength(str(e.message)) > MAX_ERROR_MESSAGE) causes.push(tooLong(`${path}.message`, MAX_METADATA_SIZE));
}

/** ValidateVolumeAttachment (the metadata is checked generically). */
function validateVolumeAttachment(va: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const spec = specOf(va);
  if (!str(spec.attacher)) causes.push(required('spec.attacher'));
  validateSource(sourceOf(va), causes);
  const node = str(spec.nodeName);
  for (const m of isDNS1123Subdomain(node)) causes.push(invalidValue('spec.nodeName', node, m));
  const status = isObj(va.status) ? va.status : {};
  if (isObj(status.attachmentMetadata)) {
    let size = 0;
    for (const [k, v] of Object.entries(status.attachmentMetadata)) size += Buffer.byteLength(k) + Buffer.byteLength(str(v));
    if (size > MAX_METADATA_SIZE) causes.push(tooLong('status.attachmentMetadata', MAX_METADATA_SIZE));
  }
  validateVolumeError(status.attachError, 'status.attachError', causes);
  validateVolumeError(status.detachError, 'status.detachError', causes);
  return causes;
}

/** ValidateVolumeAttachmentV1: what a create checks more. */
function validateVolumeAttachmentV1(va: KubeObject): StatusCause[] {
  const causes: StatusCause[] = [];
  checkCSIDriverName(causes, str(specOf(va).attacher), 'spec.attacher');
  const name = sourceOf(va).persistentVolumeName;
  if (typeof name === 'string') for (const m of isDNS1123Subdomain(name)) causes.push(invalidValue('spec.source.persistentVolumeName', name, m));
  return causes;
}

/** %#v of the internal storage.VolumeAttachmentSpec. */
const goSpec = (spec: KubeObject): string => {
  const source = isObj(spec.source) ? spec.source : {};
  return goStruct('storage.VolumeAttachmentSpec', [
    ['Attacher', goQuote(str(spec.attacher))],
    ['Source', goStruct('storage.VolumeAttachmentSource', [
      ['PersistentVolumeName', goPointer('string', typeof source.persistentVolumeName === 'string')],
      ['InlineVolumeSpec', goPointer('core.PersistentVolumeSpec', isObj(source.inlineVolumeSpec))],
    ])],
    ['NodeName', goQuote(str(spec.nodeName))],
  ]);
};

export const volumeAttachmentStrategy: Strategy = {
  statusKeepsMetadata: RESET_OBJECT_META_FOR_STATUS,
  validate: (va) => [...validateVolumeAttachment(va), ...validateVolumeAttachmentV1(va)],
  updateValidationIsComplete: true,
  validateUpdate(va, old) {
    const causes = [...validateVolumeAttachment(va), ...validateVolumeAttachment(va)];
    if (!deepEqual(va.spec, old.spec)) causes.push(invalidRendered('spec', goSpec(specOf(va)), 'field is immutable'));
    return causes;
  },
  // the status strategy's ValidateUpdate is the main one; its spec is the stored one
  validateSubresource: (va, _old, _ctx, subresource) => (subresource === 'status' ? [...validateVolumeAttachment(va), ...validateVolumeAttachment(va)] : []),
};
