// Every path and operation upstream's route installer publishes for one resource and its subresources.
import { REF_PREFIX, type GroupVersionKind, type Schema } from '../../../api/schema.js';
import type { ResourceType, Subresource } from '../../../api/types.js';
import { operationInfix, subresourceWord, versionTag } from './names.js';
import { namespaceParam, pathLevel, pathParam, QUERY, SUBRESOURCE_QUERY, type Parameter } from './parameters.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

export interface Operation {
  /** Absent on the logs handler's operations, as upstream. */
  description?: string;
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }>; required?: boolean };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
  tags: string[];
  /** Absent on the discovery operations (getAPIVersions, getAppsV1APIResources), as upstream. */
  'x-kubernetes-action'?: string;
  'x-kubernetes-group-version-kind'?: GroupVersionKind;
}

type OperationFields = Pick<Operation, 'responses'> & Partial<Pick<Operation, 'parameters' | 'requestBody'>>;

export type PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', Operation>> & {
  parameters?: Parameter[];
};

export interface OperationContext {
  /** The definition that carries this GVK, if any is known. */
  definitionOf: (gvk: GroupVersionKind) => string | undefined;
  /** Built-in kinds accept strategic merge patch; custom resources do not (kubectl asks the spec which). */
  strategicMergePatch: boolean;
}

const refTo = (name: string): Schema => ({ $ref: REF_PREFIX + name });
const STRING: Schema = { type: 'string' };

/** What we answer in: JSON and YAML (no protobuf or CBOR), plus the watch stream for lists and watches. */
const content = (schema: Schema, watchStream = false) => ({
  'application/json': { schema },
  ...(watchStream ? { 'application/json;stream=watch': { schema } } : {}),
  'application/yaml': { schema },
});
const UNAUTHORIZED = { '401': { description: 'Unauthorized' } };
const ok = (schema: Schema, watchStream = false) =>
  ({ '200': { description: 'OK', content: content(schema, watchStream) }, ...UNAUTHORIZED });
const written = (schema: Schema, accepted: boolean) => ({
  '200': { description: 'OK', content: content(schema) },
  '201': { description: 'Created', content: content(schema) },
  ...(accepted ? { '202': { description: 'Accepted', content: content(schema) } } : {}),
  ...UNAUTHORIZED,
});
const deleted = (schema: Schema) => ({
  '200': { description: 'OK', content: content(schema) },
  '202': { description: 'Accepted', content: content(schema) },
  ...UNAUTHORIZED,
});
const body = (schema: Schema, required = true) => ({ content: { '*/*': { schema } }, ...(required ? { required } : {}) });
const patchBody = (strategic: boolean) => {
  const schema = refTo(`${META}Patch`);
  return {
    content: {
      'application/apply-patch+yaml': { schema },
      'application/json-patch+json': { schema },
      'application/merge-patch+json': { schema },
      ...(strategic ? { 'application/strategic-merge-patch+json': { schema } } : {}),
    },
    required: true,
  };
};

/** The connect-style subresources: streamed, one operation per HTTP method, answering bare strings. */
const CONNECT = new Set(['exec', 'attach', 'portforward', 'proxy']);
const CONNECT_METHODS: [string, 'get' | 'post' | 'put' | 'patch' | 'delete'][] =
  [['get', 'get'], ['create', 'post'], ['update', 'put'], ['patch', 'patch'], ['delete', 'delete']];

export const resourcePaths = (r: ResourceType, ctx: OperationContext): Record<string, PathItem> => {
  const root = r.group === '' ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
  const infix = operationInfix(r.group, r.version);
  const tags = [versionTag(r.group, r.version)];
  const scope = r.namespaced ? 'Namespaced' : '';
  const gvk: GroupVersionKind = { group: r.group, version: r.version, kind: r.kind };
  const has = (v: string) => (r.verbs as string[]).includes(v);
  const nsSegment = r.namespaced ? '/namespaces/{namespace}' : '';
  const nsParams = r.namespaced ? [namespaceParam] : [];
  const nameParam = pathParam('name', `name of the ${r.kind}`);
  const collection = `${root}${nsSegment}/${r.plural}`;
  const item = `${collection}/{name}`;
  const self = refTo(r.definition);
  const listDef = ctx.definitionOf({ ...gvk, kind: `${r.kind}List` }) ?? `${r.definition}List`;
  const status = refTo(`${META}Status`);
  const watchEvent = refTo(`${META}WatchEvent`);
  const op = (verb: string, action: string, rest: string, description: string,
    fields: OperationFields, kind: GroupVersionKind = gvk): Operation => ({
    description, operationId: `${verb}${infix}${rest}`, ...fields, tags,
    'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': kind,
  });
  const paths: Record<string, PathItem> = {};

  const coll: PathItem = {};
  if (has('list')) {
    coll.get = op('list', 'list', `${scope}${r.kind}`, `list or watch objects of kind ${r.kind}`,
      { parameters: QUERY.list, responses: ok(refTo(listDef), true) });
  }
  if (has('create')) {
    coll.post = op('create', 'post', `${scope}${r.kind}`, `create ${article(r.kind)} ${r.kind}`,
      { parameters: QUERY.create, requestBody: body(self), responses: written(self, true) });
  }
  if (has('deletecollection')) {
    coll.delete = op('delete', 'deletecollection', `Collection${scope}${r.kind}`, `delete collection of ${r.kind}`,
      { parameters: QUERY.deletecollection, requestBody: body(refTo(`${META}DeleteOptions`), false), responses: ok(status) });
  }
  if (Object.keys(coll).length) paths[collection] = { ...coll, parameters: pathLevel(nsParams) };

  const one: PathItem = {};
  if (has('get')) {
    one.get = op('read', 'get', `${scope}${r.kind}`, `read the specified ${r.kind}`, { responses: ok(self) });
  }
  if (has('update')) {
    one.put = op('replace', 'put', `${scope}${r.kind}`, `replace the specified ${r.kind}`,
      { parameters: QUERY.replace, requestBody: body(self), responses: written(self, false) });
  }
  if (has('patch')) {
    one.patch = op('patch', 'patch', `${scope}${r.kind}`, `partially update the specified ${r.kind}`,
      { parameters: QUERY.patch, requestBody: patchBody(ctx.strategicMergePatch), responses: written(self, false) });
  }
  if (has('delete')) {
    one.delete = op('delete', 'delete', `${scope}${r.kind}`, `delete ${article(r.kind)} ${r.kind}`,
      { parameters: QUERY.delete, requestBody: body(refTo(`${META}DeleteOptions`), false), responses: deleted(status) });
  }
  if (Object.keys(one).length) paths[item] = { ...one, parameters: pathLevel([nameParam, ...nsParams]) };

  if (r.namespaced && has('list')) {
    paths[`${root}/${r.plural}`] = {
      get: op('list', 'list', `${r.kind}ForAllNamespaces`, `list or watch objects of kind ${r.kind}`,
        { responses: ok(refTo(listDef), true) }),
      parameters: pathLevel([], true),
    };
  }
  if (has('watch')) {
    const watchRoot = `${root}/watch${nsSegment}/${r.plural}`;
    paths[watchRoot] = {
      get: op('watch', 'watchlist', `${scope}${r.kind}List`,
        `watch individual changes to a list of ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
        { responses: ok(watchEvent, true) }),
      parameters: pathLevel(nsParams, true),
    };
    paths[`${watchRoot}/{name}`] = {
      get: op('watch', 'watch', `${scope}${r.kind}`,
        `watch changes to an object of kind ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered with the 'fieldSelector' parameter.`,
        { responses: ok(watchEvent, true) }),
      parameters: pathLevel([nameParam, ...nsParams], true),
    };
    if (r.namespaced) {
      paths[`${root}/watch/${r.plural}`] = {
        get: op('watch', 'watchlist', `${r.kind}ListForAllNamespaces`,
          `watch individual changes to a list of ${r.kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
          { responses: ok(watchEvent, true) }),
        parameters: pathLevel([], true),
      };
    }
  }

  for (const s of r.subresources ?? []) {
    const sub: SubContext = { op, scope, ctx, pathParams: [nameParam, ...nsParams] };
    paths[`${item}/${s.name}`] = subresourcePath(r, s, sub);
    // Proxies also take the rest of the URL: ".../proxy/{path}", operations suffixed "WithPath".
    if (s.name === 'proxy') {
      paths[`${item}/proxy/{path}`] = subresourcePath(r, s, { ...sub, withPath: true,
        pathParams: [...sub.pathParams, pathParam('path', `path to the resource`)] });
    }
  }
  return paths;
};

interface SubContext {
  op: (verb: string, action: string, rest: string, description: string, fields: OperationFields,
    kind?: GroupVersionKind) => Operation;
  scope: string;
  ctx: OperationContext;
  pathParams: Parameter[];
  withPath?: boolean;
}

const subresourcePath = (r: ResourceType, s: Subresource,
  { op, scope, ctx, pathParams, withPath }: SubContext): PathItem => {
  const kind: GroupVersionKind = { group: s.group, version: s.version, kind: s.kind };
  const rest = `${scope}${r.kind}${subresourceWord(s.name)}${withPath ? 'WithPath' : ''}`;
  const verbs = s.verbs as string[];
  const item: PathItem = {};

  if (CONNECT.has(s.name)) {
    // The WithPath form carries the path in the URL, not in ?path=.
    const query = (SUBRESOURCE_QUERY[s.name] ?? []).filter((p) => !(withPath && p.name === 'path'));
    for (const [verb, method] of CONNECT_METHODS) {
      if (!verbs.includes(verb)) continue;
      const word = method.charAt(0).toUpperCase() + method.slice(1);
      item[method] = op('connect', 'connect', `${word}${rest}`,
        `connect ${method.toUpperCase()} requests to ${s.name} of ${r.kind}`, {
          ...(query.length ? { parameters: query } : {}),
          responses: { '200': { description: 'OK', content: { '*/*': { schema: STRING } } }, ...UNAUTHORIZED },
        }, kind);
    }
    return { ...item, parameters: [...pathParams].sort((a, b) => (a.name < b.name ? -1 : 1)) };
  }

  if (s.name === 'log') {
    item.get = op('read', 'get', rest, `read log of the specified ${r.kind}`, {
      parameters: SUBRESOURCE_QUERY.log,
      responses: { '200': { description: 'OK', content: { 'application/json': { schema: STRING },
        'application/yaml': { schema: STRING }, 'text/plain': { schema: STRING } } }, ...UNAUTHORIZED },
    }, kind);
    return { ...item, parameters: pathLevel(pathParams) };
  }

  const defName = (s.group === r.group && s.version === r.version && s.kind === r.kind)
    ? r.definition : ctx.definitionOf(kind);
  const schema: Schema = defName ? refTo(defName) : { type: 'object' };
  if (verbs.includes('get')) {
    item.get = op('read', 'get', rest, `read ${s.name} of the specified ${r.kind}`, { responses: ok(schema) }, kind);
  }
  if (verbs.includes('create')) {
    item.post = op('create', 'post', rest, `create ${s.name} of ${article(r.kind)} ${r.kind}`,
      { parameters: QUERY.create, requestBody: body(schema), responses: written(schema, true) }, kind);
  }
  if (verbs.includes('update')) {
    item.put = op('replace', 'put', rest, `replace ${s.name} of the specified ${r.kind}`,
      { parameters: QUERY.replace, requestBody: body(schema), responses: written(schema, false) }, kind);
  }
  if (verbs.includes('patch')) {
    item.patch = op('patch', 'patch', rest, `partially update ${s.name} of the specified ${r.kind}`,
      { parameters: QUERY.patch, requestBody: patchBody(ctx.strategicMergePatch), responses: written(schema, false) }, kind);
  }
  return { ...item, parameters: pathLevel(pathParams) };
};

/** Upstream's descriptions say "create a Pod", "delete an Ingress". */
const article = (kind: string): string => (/^[AEIOU]/.test(kind) ? 'an' : 'a');
