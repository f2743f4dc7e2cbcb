// The registry's RequestContext, built from the HTTP request once the chain has authenticated it.
import type { FastifyRequest } from 'fastify';
import { invalid, type StatusCause } from '../apimachinery/errors.js';
import { forbidden, notSupported, required } from '../apimachinery/field.js';
import { validateFieldManager } from '../apimachinery/objectmeta.js';
import type { FieldValidation, RequestContext, WriteOptions } from '../registry/context.js';
import { queryValues, type RequestInfo } from './request-info.js';

/** The options a write's query carries (upstream decodes them into these kinds), by the request's verb. */
const OPTIONS_KIND: Partial<Record<string, string>> = {
  create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions', deletecollection: 'DeleteOptions',
};

const FIELD_VALIDATION = ['', 'Ignore', 'Strict', 'Warn'];

/**
 * A write's options as upstream's handlers check them (ValidateCreateOptions and its siblings): a 422 on the options'
 * kind. Reads ignore them, as upstream's do.
 */
function checkWriteOptions(kind: string, o: WriteOptions, request: FastifyRequest): void {
  const q = request.query as Record<string, string | string[] | undefined>;
  const causes: StatusCause[] = [];
  if (kind === 'PatchOptions') {
    const apply = (request.headers['content-type'] ?? '').trimStart().toLowerCase().startsWith('application/apply-patch');
    if (!apply && q.force !== undefined) causes.push(forbidden('force', 'may not be specified for non-apply patch'));
    // a controller must name itself when it applies (kubectl does, with "kubectl")
    if (apply && !o.fieldManager) causes.push(required('fieldManager', 'is required for apply patch'));
  }
  if (kind !== 'DeleteOptions') causes.push(...validateFieldManager(o.fieldManager, 'fieldManager'));
  if (o.dryRun?.some((d) => d !== 'All')) causes.push(notSupported('dryRun', o.dryRun, ['All']));
  if (kind !== 'DeleteOptions' && !FIELD_VALIDATION.includes(o.fieldValidation ?? '')) causes.push(notSupported('fieldValidation', o.fieldValidation, FIELD_VALIDATION));
  if (causes.length) throw invalid('meta.k8s.io', kind, '', causes);
}

export function requestContext(request: FastifyRequest, info: RequestInfo): RequestContext {
  const q = request.query as Record<string, string | string[] | undefined>;
  const kind = OPTIONS_KIND[info.verb];
  const userAgent = request.headers['user-agent'];
  let options: WriteOptions | undefined;
  if (kind) {
    const dryRun = queryValues(q.dryRun);
    const [fieldManager] = kind === 'DeleteOptions' ? [] : queryValues(q.fieldManager);
    const [fieldValidation] = kind === 'DeleteOptions' ? [] : queryValues(q.fieldValidation);
    options = { ...(dryRun.length ? { dryRun } : {}), ...(fieldManager ? { fieldManager } : {}), ...(fieldValidation ? { fieldValidation } : {}) };
    checkWriteOptions(kind, options, request);
  }
  return {
    namespace: info.namespace || undefined,
    user: request.user,
    userAgent,
    dryRun: options?.dryRun !== undefined,
    fieldManager: options?.fieldManager || managerFromUserAgent(userAgent),
    fieldValidation: (options?.fieldValidation || 'Warn') as FieldValidation,
    options,
    warnings: (request.warnings ??= []),
    auditAnnotations: (request.auditAnnotations ??= {}),
    deadline: request.deadline,
    now: new Date(),
  };
}

/** Records a warning for the request's response, whatever its outcome (upstream's warning.AddWarning). */
export function recordWarning(request: FastifyRequest, text: string): void {
  (request.warnings ??= []).push(text);
}

/** Upstream names a manager after the user agent's program: "kubectl-client-side-apply/v1.32 (...)" -> "kubectl-client-side-apply". */
export const managerFromUserAgent = (ua: string | undefined): string => (ua ?? 'unknown').split('/')[0]!.slice(0, 128) || 'unknown';
