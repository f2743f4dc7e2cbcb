// Swagger 2.0 (/openapi/v2) from the same operations and definitions as the v3 documents: one document for the
// whole server, refs under #/definitions/, parameters and bodies in 2.0's form.
import { REF_PREFIX, type Schema } from '../../../api/schema.js';
import type { GroupVersion } from '../../../api/types.js';
import { buildOpenApiV3Documents, type OpenApiOptions } from './documents.js';
import type { Operation, PathItem } from './operations.js';
import type { Parameter } from './parameters.js';

export const V2_REF_PREFIX = '#/definitions/';

export type V2Schema = Record<string, unknown>;

export interface V2Parameter {
  name: string;
  in: 'query' | 'path' | 'body';
  description?: string;
  required?: boolean;
  type?: string;
  uniqueItems?: boolean;
  schema?: V2Schema;
}

export interface V2Operation {
  description?: string;
  consumes?: string[];
  produces?: string[];
  schemes: string[];
  tags: string[];
  operationId: string;
  parameters?: V2Parameter[];
  responses: Record<string, { description: string; schema?: V2Schema }>;
  [extension: `x-${string}`]: unknown;
}

export type V2PathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', V2Operation>> & {
  parameters?: V2Parameter[];
};

export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: 'Kubernetes'; version: 'unversioned' };
  paths: Record<string, V2PathItem>;
  definitions: Record<string, V2Schema>;
  securityDefinitions: Record<string, unknown>;
  security: Record<string, string[]>[];
}

/**
 * A v3 schema in 2.0's dialect: refs move to #/definitions/, a described single-ref allOf becomes a ref with a
 * description beside it (as upstream's v2 prints), and 2.0's lack of oneOf/anyOf/nullable is papered over the way
 * upstream does for int-or-string and quantities.
 */
export const toV2Schema = (s: Schema): V2Schema => {
  const out: V2Schema = {};
  if (s.allOf?.length === 1 && s.allOf[0]!.$ref && !s.properties && !s.type) {
    out.$ref = s.allOf[0]!.$ref.replace(REF_PREFIX, V2_REF_PREFIX);
  }
  for (const [k, v] of Object.entries(s)) {
    if (v === undefined || k === 'nullable' || (k === 'allOf' && out.$ref)) continue;
    if (k === '$ref') out.$ref = String(v).replace(REF_PREFIX, V2_REF_PREFIX);
    else if (k === 'oneOf' || k === 'anyOf') {
      // a custom resource's int-or-string keeps no type in 2.0, as upstream's ToStructuralOpenAPIV2 leaves it
      if (!s.type && !(s as Record<string, unknown>)['x-kubernetes-int-or-string']) out.type = 'string';
    } else if (k === 'properties') {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, Schema>).map(([n, p]) => [n, toV2Schema(p)]));
    } else if (k === 'items' || (k === 'additionalProperties' && typeof v === 'object')) out[k] = toV2Schema(v as Schema);
    else if (k === 'allOf') out.allOf = (v as Schema[]).map(toV2Schema);
    else out[k] = v;
  }
  return out;
};

const toV2Parameter = (p: Parameter): V2Parameter => ({
  ...(p.description ? { description: p.description } : {}),
  in: p.in, name: p.name, ...(p.required ? { required: true } : {}), type: p.schema.type, uniqueItems: true,
});

const toV2Operation = (op: Operation): V2Operation => {
  const success = op.responses['200'] ?? op.responses['201'];
  const produces = Object.keys(success?.content ?? {});
  const params: V2Parameter[] = [];
  let consumes: string[] | undefined;
  if (op.requestBody) {
    consumes = Object.keys(op.requestBody.content);
    const schema = Object.values(op.requestBody.content)[0]!.schema;
    params.push({ in: 'body', name: 'body', ...(op.requestBody.required ? { required: true } : {}), schema: toV2Schema(schema) });
  }
  params.push(...(op.parameters ?? []).map(toV2Parameter));
  const responses: V2Operation['responses'] = {};
  for (const [code, r] of Object.entries(op.responses)) {
    const schema = r.content ? Object.values(r.content)[0]?.schema : undefined;
    responses[code] = { description: r.description, ...(schema ? { schema: toV2Schema(schema) } : {}) };
  }
  const out: V2Operation = {
    ...(op.description ? { description: op.description } : {}),
    ...(consumes ? { consumes: consumes.includes('*/*') ? ['*/*'] : consumes } : {}),
    // the logs handler's routes declare no media type
    ...(produces.length ? { produces } : {}), schemes: ['https'], tags: op.tags, operationId: op.operationId,
    ...(params.length ? { parameters: params } : {}),
    responses,
  };
  if (op['x-kubernetes-action']) out['x-kubernetes-action'] = op['x-kubernetes-action'];
  if (op['x-kubernetes-group-version-kind']) out['x-kubernetes-group-version-kind'] = op['x-kubernetes-group-version-kind'];
  return out;
};

const toV2PathItem = (item: PathItem): V2PathItem => {
  const out: V2PathItem = {};
  for (const m of ['delete', 'get', 'patch', 'post', 'put'] as const) if (item[m]) out[m] = toV2Operation(item[m]);
  if (item.parameters) out.parameters = item.parameters.map(toV2Parameter);
  return out;
};

/** The whole server's Swagger 2.0 document. */
export const buildSwagger = (gvs: GroupVersion[], options: OpenApiOptions = {}): SwaggerDocument => {
  const paths: Record<string, V2PathItem> = {};
  const definitions: Record<string, V2Schema> = {};
  for (const doc of buildOpenApiV3Documents(gvs, options).values()) {
    for (const [p, item] of Object.entries(doc.paths)) paths[p] = toV2PathItem(item);
    for (const [name, s] of Object.entries(doc.components.schemas)) definitions[name] ??= toV2Schema(s);
  }
  const sortedPaths: Record<string, V2PathItem> = {};
  for (const p of Object.keys(paths).sort()) sortedPaths[p] = paths[p]!;
  const sortedDefinitions: Record<string, V2Schema> = {};
  for (const n of Object.keys(definitions).sort()) sortedDefinitions[n] = definitions[n]!;
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'unversioned' },
    paths: sortedPaths,
    definitions: sortedDefinitions,
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } },
    security: [{ BearerToken: [] }],
  };
};
