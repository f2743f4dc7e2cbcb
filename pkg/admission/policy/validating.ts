// ValidatingAdmissionPolicy (upstream: apiserver/pkg/admission/plugin/policy/validating): every binding
// of every policy whose match constraints select the request evaluates the policy's CEL validations
// with object, oldObject, request, params, namespaceObject, variables and authorizer; failures are enforced by the
// binding's validationActions (Deny refuses, Warn warns, Audit annotates the audit event); auditAnnotations are
// published to the audit event too.
import { builtinGroupVersions } from '../../../api/index.js';
import type { KubeObject } from '../../../api/types.js';
import type { CelInput } from '@bufbuild/cel';
import { AuthorizationSession, RUNTIME_COST_BUDGET, isCelList, isCelMap, isCelUint } from '../../apimachinery/cel/index.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { StatusError, type StatusReason } from '../../apimachinery/errors.js';
import type { AdmissionDeps } from '../deps.js';
import { admissionForbidden } from '../errors.js';
import { addAuditAnnotation, type AdmissionAttributes, type ValidatingPlugin } from '../interface.js';
import { admissionRequest } from '../webhook/review.js';
import { isExemptResource, matchResources } from '../webhook/rules.js';
import { versioned } from '../versioned.js';
import { celValue, evalCel, evalMatchConditions, requestAuthorizer, withAnswers, type EvalResult } from './cel.js';
import { LazyVariables, type Variable } from './variables.js';

const GROUP = 'admissionregistration.k8s.io';

interface Decision {
  message: string;
  /** Its validation's index among all the policy's validations (0 for an error of the whole evaluation), as audited. */
  index?: number;
  reason?: string;
  /** A policy or evaluation error (enforced only under failurePolicy Fail) rather than a failed validation. */
  error?: boolean;
}

/** An auditAnnotation's outcome: a value to publish, an error to deny with, or neither (excluded). */
interface AnnotationResult {
  key: string;
  value?: string;
  error?: string;
}

/** One evaluation of a policy (one binding, one param), as upstream's ValidateResult. */
interface Evaluation {
  decisions: Decision[];
  annotations: AnnotationResult[];
  /** The binding could not be configured (params): denies whatever the validationActions, unless failurePolicy is Ignore. */
  configError?: string;
}

const CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };
const OUT_OF_BUDGET = 'validation failed due to running out of cost budget, no further validation rules will be run';
/** Upstream's MaxEvaluatedMessageExpressionSizeBytes: a longer evaluated message falls back to the static one. */
const MAX_MESSAGE = 5 * 1024;
/** Upstream's maxAuditAnnotationValueLength. */
const MAX_ANNOTATION_VALUE = 10 * 1024;
const VALIDATION_FAILURE = 'validation.policy.admission.k8s.io/validation_failure';

const byName = (a: KubeObject, b: KubeObject): number => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1);

/** cel-go's name of a value's runtime type, as upstream's unsupported-return-type message prints it. */
const runtimeType = (v: unknown): string => {
  if (v === null) return 'null_type';
  switch (typeof v) {
    case 'bigint': return 'int';
    case 'number': return 'double';
    case 'boolean': return 'bool';
    case 'string': return 'string';
    default: return v instanceof Uint8Array ? 'bytes' : isCelUint(v) ? 'uint' : isCelList(v) ? 'list' : isCelMap(v) ? 'map' : 'object';
  }
};

/** Expressions run in order against one budget (upstream's filter.ForInput); running out stops them all. */
class Budget {
  constructor(private left = RUNTIME_COST_BUDGET) {}
  run(expr: string, bindings: Record<string, CelInput>): EvalResult {
    const r = evalCel(expr, bindings);
    this.left -= r.cost;
    if (this.left < 0) throw new OutOfBudget();
    return r;
  }
}
class OutOfBudget extends Error {
  constructor() {
    super(OUT_OF_BUDGET);
  }
}

export class ValidatingAdmissionPolicy implements ValidatingPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  readonly handlesConnect = true;
  constructor(private readonly deps: AdmissionDeps) {}

  /**
   * As upstream's dispatcher: every matching binding is evaluated (Warn and Audit act on each failure), and the first
   * denial, if any, refuses the request once all have run; each policy's audit annotations are published as
   * `<policy>/<key>`.
   */
  validate(a: AdmissionAttributes): Promise<void> | void {
    if (isExemptResource(a)) return;
    const bindings = this.deps.list(GROUP, 'validatingadmissionpolicybindings');
    if (bindings.length) return this.dispatch(a, bindings);
  }

  private async dispatch(a: AdmissionAttributes, bindings: KubeObject[]): Promise<void> {
    const policies = new Map(this.deps.list(GROUP, 'validatingadmissionpolicies').map((p) => [p.metadata?.name ?? '', p]));
    const session = new AuthorizationSession();
    const denied: Array<{ who: string; d: Decision }> = [];
    const published = new Map<string, Map<string, string[]>>();
    // policies whose paramKind names no resource: refused once for the policy, whatever its bindings (upstream's
    // ConfigurationError of the policy source, raised when the policy's constraints match)
    const misconfigured = new Set<string>();
    for (const binding of [...bindings].sort(byName)) {
      const policy = policies.get(binding.spec?.policyName ?? '');
      if (!policy) continue;
      const spec = policy.spec ?? {};
      const matched = matchResources(spec.matchConstraints, a, this.deps, false);
      if (!matched) continue;
      const policyName: string = policy.metadata?.name ?? '';
      if (misconfigured.has(policyName)) continue;
      const paramError = this.paramKindError(spec.paramKind);
      if (paramError !== undefined) {
        misconfigured.add(policyName);
        if (spec.failurePolicy !== 'Ignore') denied.push({ who: `ValidatingAdmissionPolicy '${policyName}'`, d: { message: paramError, error: true } });
        continue;
      }
      if (!matchResources(binding.spec?.matchResources, a, this.deps, true)) continue;
      // what the policy sees: the request at the version its constraints name (matchPolicy Equivalent)
      const as = await versioned(a, matched, this.deps);
      const bindingName: string = binding.metadata?.name ?? '';
      const actions: string[] = binding.spec?.validationActions ?? [];
      const failOpen = spec.failurePolicy === 'Ignore';
      const who = `ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}'`;
      for (const ev of await withAnswers(this.deps.review, () => this.evaluate(policy, binding, as, a), session)) {
        if (ev.configError !== undefined) {
          if (!failOpen) denied.push({ who, d: { message: ev.configError, error: true } });
          continue;
        }
        for (const d of ev.decisions) {
          if (d.error && failOpen) continue;
          const expressionIndex = d.index ?? 0;
          for (const action of actions) {
            if (action === 'Deny') denied.push({ who, d });
            else if (action === 'Warn') a.warnings?.push(`Validation failed for ${who}: ${d.message}`);
            else if (action === 'Audit') {
              addAuditAnnotation(a, VALIDATION_FAILURE, JSON.stringify([{ message: d.message, policy: policyName, binding: bindingName, expressionIndex, validationActions: actions }]));
            }
          }
        }
        for (const ann of ev.annotations) {
          if (ann.error !== undefined) denied.push({ who, d: { message: ann.error, error: true } });
          else if (ann.value !== undefined) {
            const keys = published.get(policyName) ?? published.set(policyName, new Map()).get(policyName)!;
            const values = keys.get(ann.key) ?? keys.set(ann.key, []).get(ann.key)!;
            if (!values.includes(ann.value)) values.push(ann.value);
          }
        }
      }
    }
    for (const [policyName, keys] of published) {
      for (const [key, values] of keys) addAuditAnnotation(a, `${policyName}/${key}`, values.join(', '));
    }
    const first = denied[0];
    if (!first) return;
    const message = `${first.who} denied request: ${first.d.message}`;
    const base = admissionForbidden(a, message);
    const reason = (first.d.reason || 'Invalid') as StatusReason;
    throw new StatusError(CODES[reason] ?? 500, reason, base.message, { ...base.details, causes: [{ message }] });
  }

  /** One evaluation per parameter object of the binding, over the request as the policy matched it (`as`; `a`: as made). */
  private evaluate(policy: KubeObject, binding: KubeObject, as: AdmissionAttributes, a: AdmissionAttributes): Evaluation[] {
    const spec = policy.spec ?? {};
    let params: Array<KubeObject | null>;
    try {
      params = this.params(spec.paramKind, binding.spec?.paramRef, a);
    } catch (err) {
      return [{ decisions: [], annotations: [], configError: (err as Error).message }];
    }
    if (!params.length) return [];
    const ns = a.resource.namespaced && a.namespace ? this.deps.get('', 'namespaces', undefined, a.namespace) : undefined;
    const base: Record<string, CelInput> = {
      object: celValue(as.operation === 'DELETE' ? null : as.object),
      oldObject: celValue(as.oldObject),
      request: celValue(admissionRequest(as, '', a)),
      namespaceObject: celValue(ns ?? null),
      authorizer: requestAuthorizer(as),
    };
    return params.map((param) => this.evaluateOne(spec, { ...base, params: celValue(param) }));
  }

  /** Upstream's validator.Validate: match conditions, then validations and their messages on one cost budget, then auditAnnotations on another. */
  private evaluateOne(spec: Record<string, any>, bindings: Record<string, CelInput>): Evaluation {
    const failed = (message: string): Evaluation => ({ decisions: [{ message, error: true }], annotations: [] });
    const m = evalMatchConditions(spec.matchConditions, bindings);
    if (m.error !== undefined) return failed(m.error);
    if (!m.matches) return { decisions: [], annotations: [] };
    const budget = new Budget();
    bindings.variables = new LazyVariables((spec.variables ?? []) as Variable[], () => bindings) as unknown as CelInput;
    const validations = (spec.validations ?? []) as Array<{ expression: string; message?: string; messageExpression?: string; reason?: string }>;
    let results: EvalResult[];
    try {
      results = validations.map((v) => budget.run(v.expression, bindings));
    } catch (err) {
      if (err instanceof OutOfBudget) return failed(err.message);
      throw err;
    }
    // every messageExpression runs, on what the validations left of the budget
    let messages: Array<EvalResult | undefined> = [];
    let messageError: string | undefined;
    try {
      messages = validations.map((v) => (v.messageExpression ? budget.run(v.messageExpression, bindings) : undefined));
    } catch (err) {
      if (!(err instanceof OutOfBudget)) throw err;
      messageError = `failed messageExpression: ${err.message}`;
    }
    const decisions: Decision[] = [];
    validations.forEach((v, i) => {
      const r = results[i]!;
      if ('error' in r) decisions.push({ message: `expression '${v.expression}' resulted in error: ${r.error}`, error: true, index: i });
      else if (messageError !== undefined) decisions.push({ message: messageError, error: true, index: i });
      else if (r.value !== true) decisions.push({ message: this.message(v, messages[i]), reason: v.reason, index: i });
    });
    let annotations: AnnotationResult[];
    try {
      annotations = this.annotations(spec, bindings);
    } catch (err) {
      if (err instanceof OutOfBudget) return failed(err.message);
      throw err;
    }
    return { decisions, annotations };
  }

  /** The auditAnnotations' values: a trimmed non-empty string is published, null or empty excluded, anything else an error. */
  private annotations(spec: Record<string, any>, bindings: Record<string, CelInput>): AnnotationResult[] {
    const budget = new Budget();
    const failOpen = spec.failurePolicy === 'Ignore';
    const out: AnnotationResult[] = [];
    for (const { key, valueExpression } of (spec.auditAnnotations ?? []) as Array<{ key: string; valueExpression: string }>) {
      const r = budget.run(valueExpression, bindings);
      if ('error' in r) {
        if (!failOpen) out.push({ key, error: `expression '${valueExpression}' resulted in error: ${r.error}` });
      } else if (typeof r.value === 'string') {
        const value = r.value.trim();
        if (value) out.push({ key, value: value.slice(0, MAX_ANNOTATION_VALUE) });
      } else if (r.value !== null) {
        out.push({ key, error: `valueExpression '${valueExpression}' resulted in unsupported return type: ${runtimeType(r.value)}. Return type must be either string or null.` });
      }
    }
    return out;
  }

  /** A failed validation's message: its messageExpression's single-line string, else its message, else the expression. */
  private message(v: { expression: string; message?: string }, m: EvalResult | undefined): string {
    if (m && !('error' in m) && typeof m.value === 'string') {
      const text = m.value.trim();
      if (text && !text.includes('\n') && text.length <= MAX_MESSAGE) return text;
    }
    return v.message?.trim() || `failed expression: ${v.expression.trim()}`;
  }

  /** The parameter objects of a binding: [null] without paramKind or paramRef; [] when none are found and that is allowed. */
  private params(kind: { apiVersion?: string; kind?: string } | undefined, ref: Record<string, any> | undefined, a: AdmissionAttributes): Array<KubeObject | null> {
    if (!kind?.kind || !ref) return [null];
    const [group, version] = kind.apiVersion?.includes('/') ? kind.apiVersion.split('/', 2) as [string, string] : ['', kind.apiVersion ?? ''];
    const target = this.resourceOf(group, version, kind.kind);
    // checked for the policy before its bindings (paramKindError)
    if (!target) return [];
    const namespace = target.namespaced ? (ref.namespace || a.namespace) : undefined;
    if (target.namespaced && !namespace) throw new Error('failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
    if (!target.namespaced && ref.namespace) throw new Error('failed to configure binding: paramRef.namespace must not be provided for a cluster-scoped `paramKind`');
    let found: KubeObject[];
    if (ref.name) {
      const o = this.deps.get(group, target.plural, namespace, ref.name);
      found = o ? [o] : [];
    } else {
      const sel = labelSelectorAsSelector(ref.selector ?? {});
      found = this.deps.list(group, target.plural, namespace).filter((o) => sel.matches(o.metadata?.labels ?? {}));
    }
    if (found.length) return found;
    if (ref.parameterNotFoundAction === 'Allow') return [];
    throw new Error('failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction');
  }

  /** Why a policy's paramKind cannot be used (it names no served resource), as upstream words it; undefined when it can. */
  private paramKindError(kind: { apiVersion?: string; kind?: string } | undefined): string | undefined {
    if (!kind?.kind) return undefined;
    const [group, version] = kind.apiVersion?.includes('/') ? kind.apiVersion.split('/', 2) as [string, string] : ['', kind.apiVersion ?? ''];
    if (this.resourceOf(group, version, kind.kind)) return undefined;
    return `failed to configure policy: failed to find resource referenced by paramKind: '${group}/${version}, Kind=${kind.kind}'`;
  }

  private resourceOf(group: string, version: string, kindName: string): { plural: string; namespaced: boolean } | undefined {
    for (const gv of builtinGroupVersions) {
      if (gv.group !== group || gv.version !== version) continue;
      const rt = gv.resources.find((r) => r.kind === kindName);
      if (rt) return rt;
    }
    const crd = this.deps.list('apiextensions.k8s.io', 'customresourcedefinitions')
      .find((c) => c.spec?.group === group && c.spec?.names?.kind === kindName);
    return crd ? { plural: crd.spec.names.plural, namespaced: crd.spec.scope === 'Namespaced' } : undefined;
  }
}
