// The OpenAPI documents of the served set: /openapi/v3 (what kubectl 1.27+ reads for explain, field-validation
// support and strategic-merge metadata) and /openapi/v2 (see v2-routes.ts for who still needs it).
import type { FastifyInstance } from 'fastify';
import type { GroupVersionSource } from '../discovery/source.js';
import type { OpenApiOptions } from './documents.js';
import { registerOpenApiV2 } from './v2-routes.js';
import { registerOpenApiV3 } from './v3-routes.js';

export { buildOpenApiV3Documents, groupVersionDocument, isBuiltin, type OpenApiOptions, type OpenApiV3Document } from './documents.js';
export { buildOpenApiV3Index } from './v3-routes.js';
export { buildSwagger, type SwaggerDocument } from './v2.js';
export { encodeSwaggerProtobuf } from './v2-protobuf.js';

export const registerOpenApi = (app: FastifyInstance, source: GroupVersionSource, options: OpenApiOptions = {}) => {
  registerOpenApiV3(app, source, options);
  registerOpenApiV2(app, source, options);
};
