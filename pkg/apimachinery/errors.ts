// Typed API errors. Everything thrown inside the apiserver that a client should see is a StatusError;
// it renders itself as a metav1.Status with upstream's reason, code and message wording.

export type StatusReason =
  | 'BadRequest' | 'Unauthorized' | 'Forbidden' | 'NotFound' | 'AlreadyExists' | 'Conflict' | 'Gone'
  | 'Invalid' | 'ServerTimeout' | 'Timeout' | 'TooManyRequests' | 'MethodNotAllowed' | 'NotAcceptable'
  | 'RequestEntityTooLarge' | 'UnsupportedMediaType' | 'InternalError' | 'Expired' | 'ServiceUnavailable' | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'StatusError';
  }

  toStatus(): Status {
    // an empty reason is left out, as Go's omitempty does (a webhook's or an eviction's bare Status)
    const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, ...(this.reason ? { reason: this.reason } : {}), code: this.code } as Status;
    if (this.details) s.details = this.details;
    return s;
  }
}

export const isStatusError = (e: unknown): e is StatusError => e instanceof StatusError;

/** "pods" in core, "deployments.apps" elsewhere: upstream's qualified resource in messages. */
export interface GroupResource {
  group: string;
  resource: string;
}
const qualified = (gr: GroupResource): string => (gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

export const notFound = (gr: GroupResource, name: string): StatusError =>
  new StatusError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, { name, group: gr.group || undefined, kind: gr.resource });

/**
 * A path nothing serves outside the built-in group versions (a non-API path, an unknown group, a custom resource's
 * unknown version or resource): upstream's not-found handler answers Go's plain-text `404 page not found`, which
 * the apiserver's error handler writes for this error; a client reads it as the generic 404 this Status words.
 */
export class PageNotFound extends StatusError {
  constructor() { super(404, 'NotFound', 'the server could not find the requested resource'); }
}

/**
 * No route for a path (an unknown resource or subresource): inside a served built-in group version upstream's REST
 * router answers a generic Status (NewGenericServerResponse: no causes, empty details); elsewhere its not-found
 * handler (PageNotFound).
 */
export const noRoute = (inBuiltinGroupVersion: boolean): StatusError =>
  (inBuiltinGroupVersion ? new StatusError(404, 'NotFound', 'the server could not find the requested resource', {}) : new PageNotFound());

export const alreadyExists = (gr: GroupResource, name: string): StatusError =>
  new StatusError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, { name, group: gr.group || undefined, kind: gr.resource });

export const conflict = (gr: GroupResource, name: string, why: string): StatusError =>
  new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${why}`, { name, group: gr.group || undefined, kind: gr.resource });

/** 422 with field causes; `kind` is the Kind ("Pod"), as upstream's NewInvalid words it. */
export const invalid = (group: string, kind: string, name: string, causes: StatusCause[]): StatusError => {
  const list = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message ?? '')).filter(Boolean);
  const what = `${kind}${group ? `.${group}` : ''} "${name}" is invalid`;
  // the causes all, the message each once (field.ErrorList's ToAggregate): a rule upstream runs twice says it twice
  const message = list.length === 0 ? what : `${what}: ${aggregateMessage(list)}`;
  return new StatusError(422, 'Invalid', message, { name, group: group || undefined, kind, causes });
};

/** apimachinery's NewAggregate(errs).Error(): each message once, one alone as itself, several as "[a, b]". */
export const aggregateMessage = (messages: string[]): string => {
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
};

/** One field cause, with upstream's reason names (FieldValueRequired, FieldValueInvalid, ...). */
export const fieldCause = (
  type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTypeInvalid' | 'FieldValueNotFound' | 'InternalError',
  field: string,
  message: string,
): StatusCause => ({ reason: type, field, message });

export const badRequest = (message: string): StatusError => new StatusError(400, 'BadRequest', message);
/** An object whose namespace is not the request's (upstream's EnsureObjectNamespaceMatchesRequestNamespace). */
export const namespaceMismatch = (): StatusError => badRequest('the namespace of the provided object does not match the namespace sent on the request');
export const methodNotAllowed = (message: string, details?: StatusDetails): StatusError => new StatusError(405, 'MethodNotAllowed', message, details);
export const notAcceptable = (message: string): StatusError => new StatusError(406, 'NotAcceptable', message);
/** A body of a type no decoder reads (upstream's NegotiateInputSerializer, which knows no patch types). */
export const unsupportedMediaType = (): StatusError =>
  new StatusError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
/** A PATCH of a type that is no patch: the router's own refusal, as go-restful words it. */
export const unsupportedPatchType = (): StatusError => new StatusError(415, 'UnsupportedMediaType', '415: Unsupported Media Type');
export const gone = (message: string): StatusError => new StatusError(410, 'Expired', message);
export const tooLarge = (message = 'Request entity too large: limit is 3145728'): StatusError => new StatusError(413, 'RequestEntityTooLarge', message);
export const tooManyRequests = (message: string, retryAfterSeconds: number): StatusError =>
  new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds });
export const forbidden = (message: string, details?: StatusDetails): StatusError => new StatusError(403, 'Forbidden', message, details);
export const unauthorized = (message = 'Unauthorized'): StatusError => new StatusError(401, 'Unauthorized', message);
export const internalError = (message: string): StatusError =>
  new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
export const serviceUnavailable = (message: string): StatusError => new StatusError(503, 'ServiceUnavailable', message);
/** Upstream's NewTimeoutError: "Timeout: " before the message, and details (empty) always. */
export const timeout = (message: string): StatusError => new StatusError(504, 'Timeout', `Timeout: ${message}`, {});
