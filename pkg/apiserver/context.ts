// The registry's RequestContext, built from the HTTP request once the chain has authenticated it.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../apimachinery/errors.js';
import type { FieldValidation, RequestContext } from '../registry/context.js';
import type { RequestInfo } from './request-info.js';

export function requestContext(request: FastifyRequest, info: RequestInfo): RequestContext {
  const q = request.query as Record<string, string | string[] | undefined>;
  const dryRun = q.dryRun;
  if (dryRun !== undefined && dryRun !== 'All' && !(Array.isArray(dryRun) && dryRun.every((d) => d === 'All'))) {
    throw badRequest(`Invalid dry run value: ${JSON.stringify(dryRun)}: supported values: "All"`);
  }
  const validation = (q.fieldValidation as string | undefined) || 'Warn';
  if (!['Strict', 'Warn', 'Ignore'].includes(validation)) {
    throw badRequest(`fieldValidation: Unsupported value: ${JSON.stringify(validation)}: supported values: "Ignore", "Strict", "Warn"`);
  }
  const userAgent = request.headers['user-agent'];
  const manager = (q.fieldManager as string | undefined) || managerFromUserAgent(userAgent);
  if (manager.length > 128) throw badRequest('fieldManager: Too long: may not be more than 128 bytes');
  return {
    namespace: info.namespace || undefined,
    user: request.user,
    userAgent,
    dryRun: dryRun !== undefined,
    fieldManager: manager,
    fieldValidation: validation as FieldValidation,
    warnings: [],
    auditAnnotations: (request.auditAnnotations ??= {}),
    deadline: request.deadline,
    now: new Date(),
  };
}

/** Upstream names a manager after the user agent's program: "kubectl-client-side-apply/v1.32 (...)" -> "kubectl-client-side-apply". */
export const managerFromUserAgent = (ua: string | undefined): string => (ua ?? 'unknown').split('/')[0]!.slice(0, 128) || 'unknown';
