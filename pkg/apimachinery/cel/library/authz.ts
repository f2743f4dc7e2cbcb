// Kubernetes' authorizer library for admission expressions (upstream: apiserver/pkg/cel/library/authz.go):
// authorizer.group(g).resource(r).namespace(ns).name(n).check(verb), authorizer.path(p).check(verb),
// authorizer.serviceAccount(ns, name) and authorizer.requestResource (a resource check also narrowed by
// .fieldSelector(s) and .labelSelector(s), Kubernetes 1.31+), each check a SubjectAccessReview of the
// request's user (or that service account) against the apiserver's authorizers, read through Decision's
// allowed(), reason(), errored() and error().
//
// CEL evaluates synchronously and authorizers answer asynchronously, so a check whose decision is not known yet
// records its question in the evaluation's session and stops the evaluation; the caller answers the session's
// pending questions and evaluates again (expressions are pure, so the second pass reaches the same checks).
import { celMethod, type CelFunc } from '@bufbuild/cel';
import { create } from '@bufbuild/protobuf';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';
import { currentSession, DECISION_PENDING, type AccessAnswer, type AccessQuestion, type Subject } from './session.js';
import { AUTHORIZER_TYPE, BOOL, DECISION_TYPE, GROUP_CHECK_TYPE, PATH_CHECK_TYPE, RESOURCE_CHECK_TYPE as RC, STRING, type Opaque } from './types.js';

type Check = Omit<AccessQuestion, 'verb'>;
const read = <T>(t: Opaque, v: ReflectMessage): T => JSON.parse(t.text(v)) as T;
const write = (t: Opaque, state: unknown) => t.of(JSON.stringify(state));

/** The `authorizer` variable for `user`, with the request's own resource as authorizer.requestResource. */
export function authorizerValue(user: Subject, request: Omit<Check, 'user' | 'path'>) {
  return create(AUTHORIZER_TYPE.desc, { value: JSON.stringify({ user }), requestResource: write(RC, { user, ...request }) } as never);
}

function check(c: Check, verb: string) {
  const q: AccessQuestion = { ...c, verb };
  const key = JSON.stringify(q);
  const session = currentSession();
  const known = session?.decisions.get(key);
  if (known) return write(DECISION_TYPE, known);
  if (!session) return write(DECISION_TYPE, { allowed: false, reason: '', error: 'no authorizer' });
  session.pending.set(key, q);
  throw new Error(DECISION_PENDING);
}

const refine = (field: 'subresource' | 'namespace' | 'name' | 'fieldSelector' | 'labelSelector') =>
  celMethod(field, RC.type, [STRING], RC.type, function (s) { return write(RC, { ...read<Check>(RC, this), [field]: s }); });

export const authzFuncs: CelFunc[] = [
  celMethod('path', AUTHORIZER_TYPE.type, [STRING], PATH_CHECK_TYPE.type, function (path) { return write(PATH_CHECK_TYPE, { ...read<Check>(AUTHORIZER_TYPE, this), path }); }),
  celMethod('group', AUTHORIZER_TYPE.type, [STRING], GROUP_CHECK_TYPE.type, function (group) { return write(GROUP_CHECK_TYPE, { ...read<Check>(AUTHORIZER_TYPE, this), group }); }),
  celMethod('serviceAccount', AUTHORIZER_TYPE.type, [STRING, STRING], AUTHORIZER_TYPE.type, (namespace, name) =>
    write(AUTHORIZER_TYPE, { user: { name: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] } })),
  celMethod('resource', GROUP_CHECK_TYPE.type, [STRING], RC.type, function (resource) { return write(RC, { ...read<Check>(GROUP_CHECK_TYPE, this), resource }); }),
  refine('subresource'), refine('namespace'), refine('name'), refine('fieldSelector'), refine('labelSelector'),
  celMethod('check', PATH_CHECK_TYPE.type, [STRING], DECISION_TYPE.type, function (verb) { return check(read<Check>(PATH_CHECK_TYPE, this), verb); }),
  celMethod('check', RC.type, [STRING], DECISION_TYPE.type, function (verb) { return check(read<Check>(RC, this), verb); }),
  celMethod('allowed', DECISION_TYPE.type, [], BOOL, function () { return read<AccessAnswer>(DECISION_TYPE, this).allowed; }),
  celMethod('reason', DECISION_TYPE.type, [], STRING, function () { return read<AccessAnswer>(DECISION_TYPE, this).reason; }),
  celMethod('errored', DECISION_TYPE.type, [], BOOL, function () { return Boolean(read<AccessAnswer>(DECISION_TYPE, this).error); }),
  celMethod('error', DECISION_TYPE.type, [], STRING, function () { return read<AccessAnswer>(DECISION_TYPE, this).error ?? ''; }),
];

/** cel-go's base costs of creating a list and a struct (common/cost.go). */
const LIST_CREATE_COST = 10;
const STRUCT_CREATE_COST = 40;

/**
 * What one call of the library's function `name` costs at runtime (upstream: library/cost.go CallCost), undefined
 * for other functions: a check a fixed 350000, so that only two fit an expression's per-call limit; builders and
 * accessors 1; a selector its parse into requirements (a list of them, one per two characters at most, each a
 * struct with a list of values).
 */
export function authzCallCost(name: string): ((args: readonly unknown[]) => number) | undefined {
  if (name === 'check') return () => 350_000;
  if (name === 'fieldSelector' || name === 'labelSelector') {
    return (args) => {
      const length = typeof args[0] === 'string' ? args[0].length : 0;
      return LIST_CREATE_COST + Math.ceil(length * 0.1) + Math.ceil(Math.ceil(length * 0.5) * (LIST_CREATE_COST + STRUCT_CREATE_COST));
    };
  }
  return NOMINAL.has(name) ? () => 1 : undefined;
}

const NOMINAL = new Set(['serviceAccount', 'path', 'group', 'resource', 'subresource', 'namespace', 'name', 'allowed', 'reason', 'error', 'errored']);
