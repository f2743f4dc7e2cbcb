// The ValidatingAdmissionPolicy type checker (upstream: apiserver/pkg/admission/plugin/policy/validating/
// typechecking.go): every validation expression and messageExpression is checked once per kind the policy's
// matchConstraints name (at most 10, wildcards and subresources skipped), with object and oldObject typed by that
// kind's schema and params by the paramKind's, and what cel-go reports becomes an ExpressionWarning. Kinds whose
// schema cannot be found are skipped; a paramKind whose schema cannot be found leaves params undeclared, as upstream.
import type { JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { admissionScope, checkAdmissionExpression, compileVariables } from '../../apimachinery/cel/index.js';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface SchemaResolver {
  /** The kinds a resource of a group/version is served as (none when it is not served). */
  kindsFor(group: string, version: string, resource: string): Promise<GroupVersionKind[]>;
  /** A kind's schema as the checker reads it; undefined when it has none. */
  schemaFor(gvk: GroupVersionKind): Promise<JSONSchemaProps | undefined>;
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

const MAX_TYPES_TO_CHECK = 10;

/** schema.GroupVersionKind's String(): "apps/v1, Kind=Deployment" ("/v1, Kind=Pod" for the core group). */
const gvkString = (g: GroupVersionKind): string => `${g.group}/${g.version}, Kind=${g.kind}`;

const byGvk = (a: GroupVersionKind, b: GroupVersionKind): number =>
  (a.group !== b.group ? (a.group < b.group ? -1 : 1) : a.version !== b.version ? (a.version < b.version ? -1 : 1) : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);

/** The kinds to check, sorted by group, version and kind (upstream: typesToCheck). */
async function typesToCheck(policy: KubeObject, resolver: SchemaResolver): Promise<GroupVersionKind[]> {
  const found = new Map<string, GroupVersionKind>();
  const rules = (policy.spec?.matchConstraints?.resourceRules ?? []) as Array<{ apiGroups?: string[]; apiVersions?: string[]; resources?: string[] }>;
  for (const rule of rules) {
    const groups = rule.apiGroups ?? [];
    const versions = rule.apiVersions ?? [];
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = (rule.resources ?? []).filter((r) => !/[*/]/.test(r));
    let count = 0;
    for (const group of [...groups].sort()) {
      for (const version of [...versions].sort()) {
        for (const resource of [...resources].sort()) {
          for (const gvk of await resolver.kindsFor(group, version, resource)) {
            found.set(gvkString(gvk), gvk);
            if (++count === MAX_TYPES_TO_CHECK) return [...found.values()].sort(byGvk);
          }
        }
      }
    }
  }
  return [...found.values()].sort(byGvk);
}

/** The paramKind as a kind, when the policy has one. */
function paramsKind(policy: KubeObject): GroupVersionKind | undefined {
  const pk = policy.spec?.paramKind as { apiVersion?: string; kind?: string } | undefined;
  if (!pk?.apiVersion || !pk.kind) return undefined;
  const parts = pk.apiVersion.split('/');
  if (parts.length > 2) return undefined;
  return parts.length === 2 ? { group: parts[0]!, version: parts[1]!, kind: pk.kind } : { group: '', version: parts[0]!, kind: pk.kind };
}

/** The warnings of a policy's expressions, in upstream's order and words; empty when every expression checks. */
export async function typeCheck(policy: KubeObject, resolver: SchemaResolver): Promise<ExpressionWarning[]> {
  const kinds: Array<{ gvk: GroupVersionKind; schema: JSONSchemaProps }> = [];
  for (const gvk of await typesToCheck(policy, resolver)) {
    const schema = await resolver.schemaFor(gvk);
    if (schema) kinds.push({ gvk, schema });
  }
  const pk = paramsKind(policy);
  const paramsType = pk && (await resolver.schemaFor(pk));
  // per kind: its scope with the policy's variables compiled against it (upstream compiles them for every expression)
  const scopes = kinds.map(({ gvk, schema }) => {
    const base = { params: paramsType !== undefined, authorizer: true, object: schema, paramsType };
    const variables = policy.spec?.variables?.length ? compileVariables(policy.spec.variables, base).variables : undefined;
    return { gvk, scope: admissionScope({ ...base, variables }) };
  });
  const check = (expression: string): string => scopes.flatMap(({ gvk, scope }) => {
    const { error } = checkAdmissionExpression(expression, scope);
    return error ? [`${gvkString(gvk)}: ${error.replace(/^compilation failed: /, '')}\n`] : [];
  }).join('\n');
  const warnings: ExpressionWarning[] = [];
  ((policy.spec?.validations ?? []) as Array<{ expression?: string; messageExpression?: string }>).forEach((v, i) => {
    for (const field of ['expression', 'messageExpression'] as const) {
      const warning = v[field] ? check(v[field]) : '';
      if (warning) warnings.push({ fieldRef: `spec.validations[${i}].${field}`, warning });
    }
  });
  return warnings;
}
