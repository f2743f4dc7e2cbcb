// Impersonation (upstream: apiserver/pkg/endpoints/filters/impersonation.go): Impersonate-User,
// Impersonate-Group, Impersonate-Uid and Impersonate-Extra-<key> headers make the request act as another
// user, each one allowed only with the `impersonate` verb on users/serviceaccounts, groups, uids or
// userextras/<key>. Runs after authentication and audit, before authorization; the headers are removed.
import { badRequest, forbidden } from '../apimachinery/errors.js';
import type { UserInfo } from '../authentication/interface.js';
import type { Attributes, Authorizer } from '../authorization/index.js';

const USER = 'impersonate-user';
const GROUP = 'impersonate-group';
const UID = 'impersonate-uid';
const EXTRA = 'impersonate-extra-';
const SA_PREFIX = 'system:serviceaccount:';

interface Request {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace?: string;
  name: string;
  /** The extra's key. */
  field?: string;
}

/** Header values as sent, one per header line (rawHeaders keeps repeated headers apart). */
export function impersonationHeaders(rawHeaders: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!name.startsWith('impersonate-')) continue;
    const list = out.get(name) ?? [];
    list.push(rawHeaders[i + 1]!);
    out.set(name, list);
  }
  return out;
}

function requests(h: Map<string, string[]>): Request[] {
  const reqs: Request[] = [];
  const user = h.get(USER)?.[0] ?? '';
  let hasUser = false;
  if (user) {
    hasUser = true;
    if (user.startsWith(SA_PREFIX)) {
      const [namespace = '', name = ''] = user.slice(SA_PREFIX.length).split(':');
      reqs.push({ kind: 'ServiceAccount', namespace, name });
    } else {
      reqs.push({ kind: 'User', name: user });
    }
  }
  const others: Request[] = [];
  for (const g of h.get(GROUP) ?? []) others.push({ kind: 'Group', name: g });
  for (const [name, values] of h) {
    if (!name.startsWith(EXTRA)) continue;
    const field = decodeURIComponentSafe(name.slice(EXTRA.length).toLowerCase());
    for (const v of values) others.push({ kind: 'UserExtra', name: v, field });
  }
  const uid = h.get(UID)?.[0];
  if (uid) others.push({ kind: 'UID', name: uid });
  if (!hasUser && others.length) {
    // upstream answers 500 here; the headers are the client's input
    throw badRequest(`requested ${describe(others)} without impersonating a user`);
  }
  return [...reqs, ...others];
}

const decodeURIComponentSafe = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

const describe = (reqs: Request[]): string =>
  `[${reqs.map((r) => `${r.kind === 'UserExtra' || r.kind === 'UID' ? 'authentication.k8s.io/v1' : 'v1'}, Kind=${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}${r.field ? ` ${r.field}` : ''}`).join(' ')}]`;

/** The user to act as, or undefined when the request impersonates no one. Throws 403 as upstream. */
export async function impersonate(requestor: UserInfo, rawHeaders: string[], authorizer: Authorizer): Promise<UserInfo | undefined> {
  const h = impersonationHeaders(rawHeaders);
  if (h.size === 0) return undefined;
  const reqs = requests(h);
  if (reqs.length === 0) return undefined;
  let name = '';
  let uid: string | undefined;
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  const groupsSpecified = reqs.some((r) => r.kind === 'Group');
  for (const r of reqs) {
    const a: Attributes = {
      user: requestor, verb: 'impersonate', isResourceRequest: true, path: '', namespace: r.namespace ?? '',
      apiGroup: '', apiVersion: 'v1', resource: '', subresource: '', name: r.name,
    };
    switch (r.kind) {
      case 'ServiceAccount':
        a.resource = 'serviceaccounts';
        name = `${SA_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = ['system:serviceaccounts', `system:serviceaccounts:${r.namespace}`];
        break;
      case 'User':
        a.resource = 'users';
        name = r.name;
        break;
      case 'Group':
        a.resource = 'groups';
        groups.push(r.name);
        break;
      case 'UserExtra':
        a.apiGroup = 'authentication.k8s.io';
        a.resource = 'userextras';
        a.subresource = r.field!;
        (extra[r.field!] ??= []).push(r.name);
        break;
      case 'UID':
        a.apiGroup = 'authentication.k8s.io';
        a.resource = 'uids';
        uid = r.name;
        break;
    }
    const d = await authorizer.authorize(a);
    if (d.decision !== 'allow') throw forbiddenImpersonation(a, d.reason);
  }
  if (name !== 'system:anonymous') {
    if (!groups.includes('system:authenticated') && !groups.includes('system:unauthenticated')) groups.push('system:authenticated');
  } else if (!groups.includes('system:unauthenticated')) {
    groups.push('system:unauthenticated');
  }
  const user: UserInfo = { name, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length) user.extra = extra;
  return user;
}

/** Upstream's words: `users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope`. */
function forbiddenImpersonation(a: Attributes, reason: string): Error {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? ` in the namespace "${a.namespace}"` : ' at the cluster scope';
  let msg = `User "${a.user.name}" cannot impersonate resource "${resource}" in API group "${a.apiGroup}"${scope}`;
  if (reason) msg += `: ${reason}`;
  const gr = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource;
  return forbidden(`${gr} "${a.name}" is forbidden: ${msg}`, { name: a.name, group: a.apiGroup || undefined, kind: a.resource });
}

/** Headers to drop once the request acts as the impersonated user. */
export const isImpersonationHeader = (name: string): boolean => name.toLowerCase().startsWith('impersonate-');
