// A policy's `variables`, as upstream's composition env gives them: each is evaluated on first read, once per
// evaluation of the policy, and its cost is charged to the expression that read it first; one that fails makes
// every expression reading it fail with `composited variable "x" fails to evaluate: ...`.
import type { CelInput } from '@bufbuild/cel';
import { evalCel, type EvalResult } from './cel.js';

export interface Variable {
  name: string;
  expression: string;
}

/** CEL reads a JS Map through its `get`: this one computes the value there. Later variables may read earlier ones. */
export class LazyVariables extends Map<string, CelInput> {
  private readonly results = new Map<string, EvalResult>();
  private readonly expressions: Map<string, string>;

  constructor(variables: Variable[], private readonly bindings: () => Record<string, CelInput>) {
    super();
    this.expressions = new Map(variables.map((v) => [v.name, v.expression]));
  }

  override has(name: string): boolean {
    return this.expressions.has(name);
  }

  override get(name: string): CelInput | undefined {
    const expression = this.expressions.get(name);
    if (expression === undefined) return undefined;
    let r = this.results.get(name);
    if (!r) {
      r = evalCel(expression, this.bindings());
      this.results.set(name, r);
    }
    if ('error' in r) throw new Error(`composited variable "${name}" fails to evaluate: ${r.error}`);
    return r.value as CelInput;
  }
}
