// Serving one CustomResourceDefinition: per served version a ResourceType, a Registry over a converting view of
// the shared storage prefix (/registry/<group>/<plural>/), its watch cache, printer and published definitions
// (upstream: apiextensions-apiserver pkg/apiserver/customresource_handler.go, crdInfo).
import { definitions as metaDefinitions } from '../../../api/meta/v1/index.js';
import { initializerMetaDefinitions } from '../../../api/admissionregistration/v1alpha1/index.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion, JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import { ALL_VERBS, apiVersionOf, type GroupVersion, type KubeObject, type ResourceType, type Subresource } from '../../../api/types.js';
import { badRequest } from '../../apimachinery/errors.js';
import { andThen } from '../../apimachinery/maybe-async.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import type { Store } from '../../storage/interface.js';
import type { Decoder } from '../generic/decode.js';
import { reportStrictErrors } from '../generic/strict-errors.js';
import { createFieldManager } from '../generic/managed-fields.js';
import type { Registry } from '../generic/registry.js';
import type { RegistrySet } from '../index.js';
import { resourcePrefix } from '../keys.js';
import { setDynamicPrinter } from '../printers/index.js';
import { setSelectableFields } from '../predicate.js';
import { findFirst } from './jsonpath.js';
import { SchemaIndex } from '../schema/index.js';
import { DecodeError, TypeChecker } from '../schema/typecheck.js';
import { createConverter, type Converter } from './conversion.js';
import { ConversionCacher } from './conversion-cache.js';
import { convertingStore, type ViewCodec } from '../generic/converting-store.js';
import { defaultCustomResource, hasDefaults } from './defaults.js';
import { customResourcePrinter } from './printer.js';
import { pruneCustomResource } from './prune.js';
import { embeddedDecodingError } from './embedded.js';
import { definitionName, versionDefinitions, withoutRequired } from './schema.js';
import { customResourceStrategy } from './strategy.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const metaIndex = new SchemaIndex(metaDefinitions);
/** ObjectMeta with the alpha initializers field, for servers with the Initializers feature on. */
const initializerMeta = { ...metaDefinitions, ...initializerMetaDefinitions(metaDefinitions) };
const initializerMetaIndex = new SchemaIndex(initializerMeta);

export interface ServedVersion {
  rt: ResourceType;
  registry: Registry;
  cacher: Cacher;
}

export interface ServedCrd {
  /** The spec this serving was built from (a change rebuilds it). */
  specHash: string;
  versions: ServedVersion[];
  groupVersions: GroupVersion[];
  converter: Converter;
  terminating: boolean;
  stop(): void;
}

const schemaOf = (v: CustomResourceDefinitionVersion): JSONSchemaProps | undefined => v.schema?.openAPIV3Schema;

export function resourceTypeOf(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion): ResourceType {
  const { group, names, scope } = crd.spec;
  const subresources: Subresource[] = [];
  if (v.subresources?.status) subresources.push({ name: 'status', group, version: v.name, kind: names.kind, verbs: ['get', 'patch', 'update'] });
  if (v.subresources?.scale) subresources.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  const rt: ResourceType = {
    group, version: v.name, kind: names.kind, plural: names.plural, singular: names.singular ?? names.kind.toLowerCase(),
    namespaced: scope === 'Namespaced', verbs: ALL_VERBS, definition: definitionName(group, v.name, names.kind),
  };
  if (v.deprecated) rt.warning = v.deprecationWarning ?? defaultDeprecationWarning(crd, v.name);
  if (names.shortNames?.length) rt.shortNames = names.shortNames;
  if (names.categories?.length) rt.categories = names.categories;
  if (subresources.length) rt.subresources = subresources;
  return rt;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** Upstream's CompareKubeAwareVersionStrings: > 0 when `a` ranks above `b` (GA, beta, alpha; then the numbers). */
export function kubeAwareVersionOrder(a: string, b: string): number {
  const [ka, kb] = [KUBE_VERSION.exec(a), KUBE_VERSION.exec(b)];
  if (!ka || !kb) return Number(Boolean(ka)) - Number(Boolean(kb)) || (a === b ? 0 : a < b ? 1 : -1);
  const rank = (m: RegExpExecArray): number[] => [m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0, Number(m[1]), Number(m[3] ?? 0)];
  const [ra, rb] = [rank(ka), rank(kb)];
  return ra.map((x, i) => x - rb[i]!).find((d) => d !== 0) ?? 0;
}

/**
 * Upstream's defaultDeprecationWarning: "<group>/<version> <Kind> is deprecated", and "; use <group>/<v> <Kind>" with
 * the highest served, non-deprecated version that ranks above the deprecated one, if any.
 */
export function defaultDeprecationWarning(crd: CustomResourceDefinition, deprecated: string): string {
  const { group, names } = crd.spec;
  const msg = `${group}/${deprecated} ${names.kind} is deprecated`;
  const newer = crd.spec.versions.filter((v) => v.served && !v.deprecated && kubeAwareVersionOrder(v.name, deprecated) > 0).map((v) => v.name);
  const [best] = newer.sort((a, b) => kubeAwareVersionOrder(b, a));
  return best ? `${msg}; use ${group}/${best} ${names.kind}` : msg;
}

function decoderFor(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion, initializers: boolean): Decoder {
  const { group, names } = crd.spec;
  const schema = schemaOf(v);
  const defs = versionDefinitions(schema && (withoutRequired(schema as never) as JSONSchemaProps), group, v.name, names.kind, names.listKind ?? `${names.kind}List`);
  const meta = initializers ? initializerMetaIndex : metaIndex;
  const index = new SchemaIndex({ ...(initializers ? initializerMeta : metaDefinitions), ...defs });
  const apiVersion = apiVersionOf(group, v.name);
  const types = new TypeChecker(index);
  // upstream's objectmeta.GetObjectMeta: the metadata marshaled again (its keys sorted) and decoded into ObjectMeta
  const metadataError = (metadata: unknown): string | undefined => (metadata === null ? undefined : types.decodeError(metadata, OBJECT_META, true));
  return {
    index,
    types,
    decode(obj, _target, ctx) {
      if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion) {
        throw badRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`);
      }
      if (obj.kind !== undefined && obj.kind !== names.kind) {
        throw badRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${names.kind})`);
      }
      obj.apiVersion = apiVersion;
      obj.kind = names.kind;
      const unknown = pruneCustomResource(meta, obj, schema);
      // an apply's result is converted by the field manager without decoding (the safe converter), and its
      // creationTimestamp set by the server's, so only a body or a patch's result is decoded as ObjectMeta
      const rootError = ctx.bodyFormat === 'apply' || obj.metadata === undefined ? undefined : metadataError(obj.metadata);
      if (rootError) throw new DecodeError(rootError, names.kind, v.name);
      const coerceError = embeddedDecodingError(obj, schema, metadataError);
      if (coerceError) throw badRequest(`${names.kind} in version "${v.name}" cannot be handled as a ${names.kind}: ${coerceError}`);
      reportStrictErrors(unknown, ctx, { kind: names.kind, version: v.name }, false);
      defaultCustomResource(obj, schema);
      return obj;
    },
  };
}

export interface ServeOptions {
  registries: RegistrySet;
  store: Store;
  watchCacheHistorySize?: number;
}

/**
 * Starts serving every served version of `crd`; resolves once their watch caches are live, or could not list (the
 * conversion failing: the versions are served, their reads answer with its error until it converts).
 */
export async function serveCrd(crd: CustomResourceDefinition, specHash: string, o: ServeOptions): Promise<ServedCrd> {
  const { group, names } = crd.spec;
  const storageVersion = crd.spec.versions.find((v) => v.storage)!.name;
  const converter = createConverter(group, crd.spec.conversion, (resource, namespace, name) => o.registries.get('', 'v1', resource)?.peek(namespace, name)?.object);
  const served: ServedCrd = {
    specHash, versions: [], groupVersions: [], converter, terminating: Boolean(crd.metadata.deletionTimestamp),
    stop: () => {
      for (const sv of served.versions) {
        // a version the CRD's new spec serves again keeps its new printer and selectable fields
        if (o.registries.remove(sv.registry)) {
          setDynamicPrinter(sv.rt.group, sv.rt.version, sv.rt.plural, undefined);
          setSelectableFields(sv.rt.group, sv.rt.version, sv.rt.plural, undefined);
        }
        sv.cacher.stop();
      }
      converter.close();
    },
  };
  const toVersion = (obj: KubeObject, version: string): KubeObject | Promise<KubeObject> => converter.convert(obj, version);
  // upstream's storage codec: a stored object is defaulted with the schema of the version it is stored in, and
  // once converted, pruned with the schema of the version it is served in (crdConversionRESTOptionsGetter)
  const schemas = new Map(crd.spec.versions.map((x) => [apiVersionOf(group, x.name), schemaOf(x)]));
  const schemaText = new Map([...schemas].map(([k, x]) => [k, JSON.stringify(x ?? null)]));
  const meta = o.registries.initializers ? initializerMetaIndex : metaIndex;
  const storedDefaults = (obj: KubeObject): KubeObject => {
    const schema = schemas.get(String(obj.apiVersion));
    if (!hasDefaults(schema)) return obj;
    const copy = cloneJson(obj);
    defaultCustomResource(copy, schema);
    return JSON.stringify(copy) === JSON.stringify(obj) ? obj : copy;
  };
  /** A converted object less what its new version's schema does not specify (nothing to drop: the same schema, converted by None). */
  const prunedFrom = (from: string, to: string) => (obj: KubeObject): KubeObject => {
    if (converter.sync && schemaText.get(from) === schemaText.get(to)) return obj;
    const copy = cloneJson(obj);
    pruneCustomResource(meta, copy, schemas.get(to));
    return copy;
  };
  for (const v of crd.spec.versions.filter((x) => x.served)) {
    const rt = resourceTypeOf(crd, v);
    const schema = schemaOf(v);
    const apiVersion = apiVersionOf(group, v.name);
    const codec: ViewCodec = {
      toView: (obj) => {
        const stored = storedDefaults(obj);
        return stored.apiVersion === apiVersion ? stored : andThen(toVersion(stored, v.name), prunedFrom(String(stored.apiVersion), apiVersion));
      },
      toStorage: v.name === storageVersion ? (obj) => toVersion(obj, storageVersion)
        : (obj) => andThen(toVersion(obj, storageVersion), prunedFrom(apiVersion, apiVersionOf(group, storageVersion))),
      // the only version, and the only one objects were stored at
      identity: crd.spec.versions.length === 1 && (crd.status?.storedVersions ?? []).every((s) => s === v.name) && !hasDefaults(schemas.get(apiVersion)),
    };
    const view = convertingStore(o.store, codec);
    const cacher = new ConversionCacher(view, resourcePrefix(rt), { historySize: o.watchCacheHistorySize, historyFromStore: crd.spec.conversion?.strategy !== 'Webhook' });
    await cacher.start();
    const decoder = decoderFor(crd, v, o.registries.initializers);
    const strategy = customResourceStrategy({
      schema, kind: names.kind, hasStatus: Boolean(v.subresources?.status), scale: v.subresources?.scale,
      terminating: () => served.terminating, namespaced: crd.spec.scope === 'Namespaced',
    });
    const registry = o.registries.add(rt, { store: view, cacher, decoder, strategy, fieldManager: createFieldManager(decoder.index), codec });
    setDynamicPrinter(group, v.name, names.plural, customResourcePrinter(v.additionalPrinterColumns));
    setSelectableFields(group, v.name, names.plural, selectableFields(v));
    served.versions.push({ rt, registry, cacher });
    served.groupVersions.push({
      group, version: v.name, resources: [rt],
      definitions: versionDefinitions(schema, group, v.name, names.kind, names.listKind ?? `${names.kind}List`, { selectableFields: v.selectableFields }),
    });
  }
  return served;
}

/** selectableFields: each JSONPath a field label ("spec.color"), its value the field's scalar as a string. */
function selectableFields(v: CustomResourceDefinitionVersion): { labels: string[]; read(obj: KubeObject): Record<string, string> } {
  const paths = (v.selectableFields ?? []).map((f) => f.jsonPath);
  return {
    labels: paths.map((p) => p.replace(/^\./, '')),
    read: (obj) => Object.fromEntries(paths.map((p) => {
      const value = findFirst(obj, p);
      return [p.replace(/^\./, ''), value === undefined || value === null ? '' : String(value)];
    })),
  };
}
