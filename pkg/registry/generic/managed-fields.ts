// The field manager over the schema index: binds apimachinery's managed-fields algorithms to the
// definition of the object being written.
import type { KubeObject } from '../../../api/types.js';
import { apply } from '../../apimachinery/managedfields/apply.js';
import { updateManagedFields } from '../../apimachinery/managedfields/update.js';
import { rfc3339 } from '../meta.js';
import type { SchemaIndex } from '../schema/index.js';
import type { FieldManager } from './field-manager.js';

/** The definition of each kind, found once by its x-kubernetes-group-version-kind. */
function kindIndex(index: SchemaIndex): Map<string, string> {
  const byKind = new Map<string, string>();
  for (const [name, s] of Object.entries(index.definitions)) {
    for (const gvk of s['x-kubernetes-group-version-kind'] ?? []) {
      byKind.set(`${gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version}/${gvk.kind}`, name);
    }
  }
  return byKind;
}

/**
 * Fields a write cannot own: the main resource does not write status, /status writes nothing else
 * (upstream's reset fields of the status strategies).
 */
const SPEC: string[][] = [['f:spec']];
const STATUS: string[][] = [['f:status']];
const NONE: string[][] = [];
/** `statusKeeps`: the metadata fields a status write leaves as stored, reset fields of the status strategy too. */
const ignoredFor = (subresource: string | undefined, hasStatus: boolean, statusKeeps?: readonly string[]): string[][] =>
  subresource === 'status' ? (statusKeeps?.length ? [...SPEC, ...statusKeeps.map((f) => ['f:metadata', `f:${f}`])] : SPEC)
    : !subresource && hasStatus ? STATUS : NONE;

export function createFieldManager(index: SchemaIndex): FieldManager {
  let byKind: Map<string, string> | undefined;
  const rootOf = (obj: KubeObject): string => {
    byKind ??= kindIndex(index);
    const def = byKind.get(`${obj.apiVersion}/${obj.kind}`);
    if (!def) throw new Error(`no schema for ${obj.apiVersion}/${obj.kind}`);
    return def;
  };
  // a version of the kind the server has no schema of any more (apps/v1beta1, a CRD's dropped version)
  const knownVersion = (obj: KubeObject) => (apiVersion: string): boolean => byKind!.has(`${apiVersion}/${obj.kind}`);
  return {
    update(old, next, ctx, subresource, hasStatus = false) {
      const out = updateManagedFields(old, next, ctx.fieldManager, {
        lookup: index.lookup, rootDefinition: rootOf(next), apiVersion: next.apiVersion!, now: rfc3339(ctx.now), subresource,
        ignore: ignoredFor(subresource, hasStatus), knownVersion: knownVersion(next),
      });
      next.metadata = out.metadata;
    },
    apply(live, applied, ctx, force, hasStatus = false, subresource, statusKeeps) {
      return apply(live, applied, ctx.fieldManager, {
        force, lookup: index.lookup, rootDefinition: rootOf(applied), apiVersion: applied.apiVersion!, now: rfc3339(ctx.now), subresource,
        ignore: ignoredFor(subresource, hasStatus, statusKeeps), knownVersion: knownVersion(applied),
      });
    },
  };
}
