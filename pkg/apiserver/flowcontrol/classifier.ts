// Which FlowSchema and priority level a request belongs to, as upstream's APF config controller decides
// (apiserver/pkg/util/flowcontrol, rule matching in its filter): the FlowSchemas in matchingPrecedence order, then by
// name; the first one with a rule whose subjects match the user and whose resource or non-resource rules match the
// request wins, and its distinguisher (ByUser, ByNamespace) names the flow within it. Answers are cached per request
// shape for one configuration: a new configuration comes with a new classifier.
import type { UserInfo } from '../../authentication/interface.js';

export interface RequestAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  path: string;
}

interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  user?: { name: string };
  group?: { name: string };
  serviceAccount?: { namespace: string; name: string };
}

interface ResourceRule { verbs: string[]; apiGroups: string[]; resources: string[]; clusterScope?: boolean; namespaces?: string[] }
interface NonResourceRule { verbs: string[]; nonResourceURLs: string[] }
interface PolicyRule { subjects?: Subject[]; resourceRules?: ResourceRule[]; nonResourceRules?: NonResourceRule[] }

export interface FlowSchemaSpec {
  name: string;
  uid: string;
  matchingPrecedence: number;
  priorityLevel: string;
  distinguisher?: 'ByUser' | 'ByNamespace';
  rules: PolicyRule[];
}

export interface Classification {
  flowSchema: string;
  flowSchemaUid: string;
  priorityLevel: string;
  /** The flow within the schema: the user's name, the namespace, or "" (no distinguisher). */
  flowDistinguisher: string;
}

const SA_PREFIX = 'system:serviceaccount:';
const CACHE_LIMIT = 10_000;

const has = (list: string[] | undefined, v: string): boolean => !!list && (list.includes('*') || list.includes(v));

function subjectMatches(s: Subject, user: UserInfo): boolean {
  switch (s.kind) {
    case 'User': return s.user?.name === '*' || s.user?.name === user.name;
    case 'Group': return s.group?.name === '*' || (!!s.group && user.groups.includes(s.group.name));
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      if (!sa) return false;
      return sa.name === '*' ? user.name.startsWith(`${SA_PREFIX}${sa.namespace}:`) : user.name === `${SA_PREFIX}${sa.namespace}:${sa.name}`;
    }
    default: return false;
  }
}

function resourceRuleMatches(r: ResourceRule, a: RequestAttributes): boolean {
  if (!has(r.verbs, a.verb) || !has(r.apiGroups, a.apiGroup)) return false;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  if (!has(r.resources, resource)) return false;
  return a.namespace ? has(r.namespaces, a.namespace) : r.clusterScope === true;
}

/** "*", the path itself, or a prefix written "/prefix/*". */
const urlMatches = (pattern: string, path: string): boolean =>
  pattern === '*' || pattern === path || (pattern.endsWith('*') && path.startsWith(pattern.slice(0, -1)));

const nonResourceRuleMatches = (r: NonResourceRule, a: RequestAttributes): boolean =>
  has(r.verbs, a.verb) && r.nonResourceURLs.some((u) => urlMatches(u, a.path));

function ruleMatches(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!(rule.subjects ?? []).some((s) => subjectMatches(s, a.user))) return false;
  return a.isResourceRequest
    ? (rule.resourceRules ?? []).some((r) => resourceRuleMatches(r, a))
    : (rule.nonResourceRules ?? []).some((r) => nonResourceRuleMatches(r, a));
}

export class Classifier {
  private readonly schemas: FlowSchemaSpec[];
  /** Answers per user (found by object: the chain keeps one per connection; else by name and groups), then per request shape. */
  private readonly byObject = new WeakMap<UserInfo, Map<string, FlowSchemaSpec | null>>();
  private readonly byName = new Map<string, Map<string, FlowSchemaSpec | null>>();

  constructor(schemas: FlowSchemaSpec[]) {
    this.schemas = [...schemas].sort((x, y) => x.matchingPrecedence - y.matchingPrecedence || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  }

  private answersFor(user: UserInfo): Map<string, FlowSchemaSpec | null> {
    let m = this.byObject.get(user);
    if (m) return m;
    const id = `${user.name}\0${user.groups.join('\0')}`;
    m = this.byName.get(id);
    if (!m) {
      if (this.byName.size >= CACHE_LIMIT) this.byName.clear();
      this.byName.set(id, (m = new Map()));
    }
    this.byObject.set(user, m);
    return m;
  }

  /** The request's schema and flow, or undefined when no schema matches (there is always catch-all upstream). */
  classify(a: RequestAttributes): Classification | undefined {
    const byShape = this.answersFor(a.user);
    const key = a.isResourceRequest ? `${a.verb} ${a.apiGroup} ${a.resource} ${a.subresource} ${a.namespace}` : `${a.verb} ${a.path}`;
    let fs = byShape.get(key);
    if (fs === undefined) {
      fs = this.schemas.find((s) => s.rules.some((r) => ruleMatches(r, a))) ?? null;
      if (byShape.size >= CACHE_LIMIT) byShape.clear();
      byShape.set(key, fs);
    }
    if (!fs) return undefined;
    const flowDistinguisher = fs.distinguisher === 'ByUser' ? a.user.name : fs.distinguisher === 'ByNamespace' ? a.namespace : '';
    return { flowSchema: fs.name, flowSchemaUid: fs.uid, priorityLevel: fs.priorityLevel, flowDistinguisher };
  }
}
