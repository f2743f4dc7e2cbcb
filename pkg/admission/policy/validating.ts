// ValidatingAdmissionPolicy (upstream: apiserver/pkg/admission/plugin/policy/validating): every binding
// of every policy whose match constraints select the request evaluates the policy's CEL validations
// with object, oldObject, request, params, namespaceObject, variables and authorizer; failures are enforced by the
// binding's validationActions (Deny refuses, Warn warns, Audit is not recorded here).
import { builtinGroupVersions } from '../../../api/index.js';
import type { KubeObject } from '../../../api/types.js';
import type { CelInput } from '@bufbuild/cel';
import { AuthorizationSession } from '../../apimachinery/cel/index.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import { StatusError, type StatusReason } from '../../apimachinery/errors.js';
import type { AdmissionDeps } from '../deps.js';
import { admissionForbidden } from '../errors.js';
import type { AdmissionAttributes, ValidatingPlugin } from '../interface.js';
import { admissionRequest } from '../webhook/review.js';
import { isExemptResource, matchResources } from '../webhook/rules.js';
import { celValue, evalCel, evalMatchConditions, requestAuthorizer, withAnswers } from './cel.js';

const GROUP = 'admissionregistration.k8s.io';

interface Decision {
  message: string;
  reason?: string;
  /** A policy or evaluation error (enforced only under failurePolicy Fail) rather than a failed validation. */
  error?: boolean;
}

const CODES: Record<string, number> = { Forbidden: 403, Unauthorized: 401, RequestEntityTooLarge: 413, Invalid: 422 };

const byName = (a: KubeObject, b: KubeObject): number => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1);

export class ValidatingAdmissionPolicy implements ValidatingPlugin {
  readonly name = 'ValidatingAdmissionPolicy';
  constructor(private readonly deps: AdmissionDeps) {}

  async validate(a: AdmissionAttributes): Promise<void> {
    if (isExemptResource(a)) return;
    const bindings = this.deps.list(GROUP, 'validatingadmissionpolicybindings');
    if (!bindings.length) return;
    const policies = new Map(this.deps.list(GROUP, 'validatingadmissionpolicies').map((p) => [p.metadata?.name ?? '', p]));
    const session = new AuthorizationSession();
    for (const binding of [...bindings].sort(byName)) {
      const policy = policies.get(binding.spec?.policyName ?? '');
      if (!policy) continue;
      const spec = policy.spec ?? {};
      if (!matchResources(spec.matchConstraints, a, this.deps, false)) continue;
      if (!matchResources(binding.spec?.matchResources, a, this.deps, true)) continue;
      const actions: string[] = binding.spec?.validationActions ?? [];
      const failOpen = spec.failurePolicy === 'Ignore';
      for (const d of await withAnswers(this.deps.review, () => this.evaluate(policy, binding, a), session)) {
        if (d.error && failOpen) continue;
        const who = `ValidatingAdmissionPolicy '${policy.metadata?.name}' with binding '${binding.metadata?.name}'`;
        if (actions.includes('Warn')) a.warnings?.push(`Validation failed for ${who}: ${d.message}`);
        if (actions.includes('Deny')) {
          const message = `${who} denied request: ${d.message}`;
          const base = admissionForbidden(a, message);
          const reason = (d.reason || 'Invalid') as StatusReason;
          throw new StatusError(CODES[reason] ?? 500, reason, base.message, { ...base.details, causes: [{ message }] });
        }
      }
    }
  }

  /** The failures of one policy under one binding (one round per parameter object). */
  private evaluate(policy: KubeObject, binding: KubeObject, a: AdmissionAttributes): Decision[] {
    const spec = policy.spec ?? {};
    let params: Array<KubeObject | null>;
    try {
      params = this.params(spec.paramKind, binding.spec?.paramRef, a);
    } catch (err) {
      return [{ message: (err as Error).message, error: true }];
    }
    if (!params.length) return [];
    const ns = a.resource.namespaced && a.namespace ? this.deps.get('', 'namespaces', undefined, a.namespace) : undefined;
    const base: Record<string, CelInput> = {
      object: celValue(a.operation === 'DELETE' ? null : a.object),
      oldObject: celValue(a.oldObject),
      request: celValue(admissionRequest(a, '')),
      namespaceObject: celValue(ns ?? null),
      authorizer: requestAuthorizer(a),
    };
    const out: Decision[] = [];
    for (const param of params) {
      const bindings: Record<string, CelInput> = { ...base, params: celValue(param) };
      const m = evalMatchConditions(spec.matchConditions, bindings);
      if (m.error !== undefined) {
        out.push({ message: m.error, error: true });
        continue;
      }
      if (!m.matches) continue;
      const variables = new Map<string, CelInput>();
      bindings.variables = variables as unknown as CelInput;
      for (const v of (spec.variables ?? []) as Array<{ name: string; expression: string }>) {
        const r = evalCel(v.expression, bindings);
        if (!('error' in r)) variables.set(v.name, r.value as CelInput);
      }
      for (const v of (spec.validations ?? []) as Array<{ expression: string; message?: string; messageExpression?: string; reason?: string }>) {
        const r = evalCel(v.expression, bindings);
        if ('error' in r) {
          out.push({ message: `expression '${v.expression}' resulted in error: ${r.error}`, error: true });
        } else if (r.value !== true) {
          out.push({ message: this.message(v, bindings), reason: v.reason });
        }
      }
    }
    return out;
  }

  private message(v: { expression: string; message?: string; messageExpression?: string }, bindings: Record<string, CelInput>): string {
    if (v.messageExpression) {
      const m = evalCel(v.messageExpression, bindings);
      if (!('error' in m) && typeof m.value === 'string' && m.value.trim() && !m.value.includes('\n')) return m.value;
    }
    return v.message || `failed expression: ${v.expression.trim()}`;
  }

  /** The parameter objects of a binding: [null] without paramKind or paramRef; [] when none are found and that is allowed. */
  private params(kind: { apiVersion?: string; kind?: string } | undefined, ref: Record<string, any> | undefined, a: AdmissionAttributes): Array<KubeObject | null> {
    if (!kind?.kind || !ref) return [null];
    const [group, version] = kind.apiVersion?.includes('/') ? kind.apiVersion.split('/', 2) as [string, string] : ['', kind.apiVersion ?? ''];
    const target = this.resourceOf(group, version, kind.kind);
    if (!target) throw new Error(`failed to configure policy: failed to find resource referenced by paramKind: '${kind.apiVersion}, Kind=${kind.kind}'`);
    const namespace = target.namespaced ? (ref.namespace || a.namespace) : undefined;
    if (target.namespaced && !namespace) throw new Error('failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources');
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
