// The object of a watch's BOOKMARK event, as upstream's cacher makes it: a zero-valued object of the kind (newFunc())
// given only the revision (and, ending a watch-list's initial events, the k8s.io/initial-events-end annotation).
// A built-in kind's is written as encoding/json writes that zero object, converted to the version watched
// (api/go-zero-objects.ts):
//   {"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"12","creationTimestamp":null},"spec":{"containers":null},"status":{}}
// A custom resource's is an unstructured object, a Go map whose keys json.Marshal sorts:
//   {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"resourceVersion":"12"}}
import { conversionAnnotations, goZeroObject } from '../../../api/go-zero-objects.js';
import { allDefinitions } from '../../../api/index.js';
import { apiVersionOf, type ResourceType } from '../../../api/types.js';

/** The JSON text after `metadata` of each built-in kind's converted zero object, by definition. */
const afterMetadata = new Map<string, string>();

const afterMetadataOf = (definition: string): string => {
  let text = afterMetadata.get(definition);
  if (text === undefined) {
    const { metadata: _metadata, ...rest } = goZeroObject(definition, (name) => allDefinitions[name], true) ?? {};
    afterMetadata.set(definition, (text = JSON.stringify(rest).slice(1, -1)));
  }
  return text;
};

/** Annotations as a Go map[string]string is written: keys sorted. */
const annotationsJson = (a: Record<string, string>): string => JSON.stringify(Object.fromEntries(Object.keys(a).sort().map((k) => [k, a[k]])));

/** The bookmark object's JSON text at `revision`; `custom` for a custom resource (an unstructured object). */
export function bookmarkJson(rt: ResourceType, custom: boolean, revision: number, annotations?: Record<string, string>): string {
  const typeMeta = [JSON.stringify(apiVersionOf(rt.group, rt.version)), JSON.stringify(rt.kind)];
  const rv = `"resourceVersion":"${revision}"`;
  if (custom) {
    const meta = annotations ? `"annotations":${annotationsJson(annotations)},${rv}` : rv;
    return `{"apiVersion":${typeMeta[0]},"kind":${typeMeta[1]},"metadata":{${meta}}}`;
  }
  const all = { ...conversionAnnotations[rt.definition], ...annotations };
  // ObjectMeta's field order: resourceVersion, creationTimestamp (a struct, written at zero as null), annotations
  const meta = `${rv},"creationTimestamp":null${Object.keys(all).length ? `,"annotations":${annotationsJson(all)}` : ''}`;
  const rest = afterMetadataOf(rt.definition);
  return `{"kind":${typeMeta[1]},"apiVersion":${typeMeta[0]},"metadata":{${meta}}${rest ? `,${rest}` : ''}}`;
}
