// Label selectors as upstream's k8s.io/apimachinery/pkg/labels (string syntax) and metav1.LabelSelector.
//
//   parseLabelSelector(s: string): Selector                         // "a=b,c!=d,e in (x,y),f notin (z),g,!h"; throws BadRequest
//   labelSelectorAsSelector(ls: LabelSelector | null | undefined): Selector   // null -> nothing(), {} -> everything(); throws BadRequest
//   selectorFromSet(set: Record<string, string>): Selector          // exact match of every pair, no validation
//   everything(), nothing(): Selector
//   validateLabelSelector(ls, fldPath: string): StatusCause[]       // metav1validation.ValidateLabelSelector
//   Selector: { requirements, empty, matches(labels?), toString(), requiresExactMatch(key) }
import { aggregateMessage, badRequest, type StatusCause } from './errors.js';
import { forbidden, invalidValue, required } from './field.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { validateLabelName, validateLabels } from './objectmeta.js';

export type Operator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: Operator;
  values: string[];
}

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface Selector {
  readonly requirements: Requirement[];
  /** True when it restricts nothing (matches every object). */
  readonly empty: boolean;
  matches(labels: Record<string, string> | undefined): boolean;
  toString(): string;
  /** The single value `key` must equal, if the selector pins one (=, ==, or in with one value). */
  requiresExactMatch(key: string): string | undefined;
}

const BINARY_OPERATORS = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];

const matchRequirement = (r: Requirement, labels: Record<string, string>): boolean => {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const val = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in': case '=': case '==':
      return has && r.values.includes(val!);
    case 'notin': case '!=':
      return !has || !r.values.includes(val!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt': case 'lt': {
      if (!has || !/^[-+]?\d+$/.test(val!) || r.values.length !== 1) return false;
      const lv = BigInt(val!);
      const rv = BigInt(r.values[0]);
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
  }
};

const requirementString = (r: Requirement): string => {
  const key = r.operator === '!' ? `!${r.key}` : r.key;
  if (r.operator === 'exists' || r.operator === '!') return key;
  const vals = [...r.values].sort().join(',');
  switch (r.operator) {
    case 'in': return `${key} in (${vals})`;
    case 'notin': return `${key} notin (${vals})`;
    case 'gt': return `${key}>${vals}`;
    case 'lt': return `${key}<${vals}`;
    default: return `${key}${r.operator}${vals}`;
  }
};

const makeSelector = (reqs: Requirement[]): Selector => {
  const requirements = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (labels) => requirements.every((r) => matchRequirement(r, labels ?? {})),
    toString: () => requirements.map(requirementString).join(','),
    requiresExactMatch: (key) => {
      const r = requirements.find((x) => x.key === key);
      if (r && (r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) return r.values[0];
      return undefined;
    },
  };
};

export const everything = (): Selector => makeSelector([]);

export const nothing = (): Selector => ({
  requirements: [], empty: false, matches: () => false, toString: () => '', requiresExactMatch: () => undefined,
});

export const selectorFromSet = (set: Record<string, string> | undefined): Selector =>
  makeSelector(Object.entries(set ?? {}).map(([key, v]) => ({ key, operator: '=' as const, values: [v] })));

/** upstream's NewRequirement (no field path given): the error, if any, aggregates its field errors. */
const newRequirement = (key: string, operator: Operator, values: string[]): Requirement => {
  const errs: string[] = [];
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) errs.push(`key: ${invalidValue('', key, keyErrs.join('; ')).message}`);
  const bad = (detail: string): void => { errs.push(`values: ${invalidValue('', values, detail).message}`); };
  switch (operator) {
    case 'in': case 'notin':
      if (values.length === 0) bad("for 'in', 'notin' operators, values set can't be empty");
      break;
    case '=': case '==': case '!=':
      if (values.length !== 1) bad('exact-match compatibility requires one single value');
      break;
    case 'exists': case '!':
      if (values.length !== 0) bad('values set must be empty for exists and does not exist');
      break;
    case 'gt': case 'lt':
      if (values.length !== 1) bad("for 'Gt', 'Lt' operators, exactly one value is required");
      values.forEach((v, i) => {
        if (!/^[-+]?\d+$/.test(v)) errs.push(`values[${i}]: ${invalidValue('', v, "for 'Gt', 'Lt' operators, the value must be an integer").message}`);
      });
      break;
  }
  values.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(`values[${i}][${key}]: ${invalidValue('', v, msgs.join('; ')).message}`);
  });
  if (errs.length) throw new Error(aggregateMessage(errs));
  return { key, operator, values };
};

// ---- the string syntax: a lexer and a recursive-descent parser, as upstream's ----

type Tok = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';
interface Item { tok: Tok; lit: string }

// a Map: "toString" or "constructor" is a label key, never a keyword found on an object's prototype
const KEYWORDS = new Map<string, Tok>([
  [')', ')'], [',', ','], ['!', '!'], ['==', '=='], ['=', '='], ['>', '>'], ['in', 'in'], ['<', '<'], ['!=', '!='], ['notin', 'notin'], ['(', '('],
]);
const isWhitespace = (c: string): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string): boolean => '=!(),><'.includes(c);

const lex = (s: string): Item[] => {
  const items: Item[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && isWhitespace(s[pos])) pos++;
    if (pos >= s.length) { items.push({ tok: 'eos', lit: '' }); return items; }
    if (isSpecial(s[pos])) {
      // longest run of special characters that still forms an operator
      let buf = '';
      let last: Item | undefined;
      while (pos < s.length && isSpecial(s[pos])) {
        buf += s[pos];
        const t = KEYWORDS.get(buf);
        if (t) last = { tok: t, lit: buf };
        else if (last) break;
        pos++;
      }
      items.push(last ?? { tok: 'error', lit: `error expected: keyword found '${buf}'` });
    } else {
      let buf = '';
      while (pos < s.length && !isSpecial(s[pos]) && !isWhitespace(s[pos])) buf += s[pos++];
      items.push({ tok: KEYWORDS.get(buf) ?? 'id', lit: buf });
    }
  }
};

class Parser {
  private pos = 0;
  constructor(private readonly items: Item[]) {}

  /** In value context the keywords "in" and "notin" are plain identifiers. */
  private peek(values: boolean): Item {
    const it = this.items[this.pos];
    return values && (it.tok === 'in' || it.tok === 'notin') ? { tok: 'id', lit: it.lit } : it;
  }
  private next(values: boolean): Item {
    const it = this.peek(values);
    this.pos++;
    return it;
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.peek(true);
      if (tok === 'eos') return reqs;
      if (tok !== 'id' && tok !== '!') throw new Error(`found '${lit}', expected: !, identifier, or 'end of string'`);
      let r: Requirement;
      try {
        r = this.requirement();
      } catch (e) {
        throw new Error(`unable to parse requirement: ${(e as Error).message}`);
      }
      reqs.push(r);
      const t = this.next(true);
      if (t.tok === 'eos') return reqs;
      if (t.tok !== ',') throw new Error(`found '${t.lit}', expected: ',' or 'end of string'`);
      const t2 = this.peek(true);
      if (t2.tok !== 'id' && t2.tok !== '!') throw new Error(`found '${t2.lit}', expected: identifier after ','`);
    }
  }

  private requirement(): Requirement {
    let t = this.next(true);
    let notExists = false;
    if (t.tok === '!') { notExists = true; t = this.next(true); }
    if (t.tok !== 'id') throw new Error(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErrs = isQualifiedName(key);
    if (keyErrs.length) throw new Error(`<nil>: ${invalidValue('', key, keyErrs.join('; ')).message}`);
    const after = this.peek(true).tok;
    if (after === 'eos' || after === ',') return newRequirement(key, notExists ? '!' : 'exists', []);
    const op = this.operator();
    const values = op === 'in' || op === 'notin' ? this.valueSet() : this.exactValue();
    return newRequirement(key, op, [...new Set(values)].sort());
  }

  private operator(): Operator {
    const { tok, lit } = this.next(false);
    const ops: Partial<Record<Tok, Operator>> = { in: 'in', '=': '=', '==': '==', '>': 'gt', '<': 'lt', notin: 'notin', '!=': '!=' };
    const op = ops[tok];
    if (!op) throw new Error(`found '${lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
    return op;
  }

  private valueSet(): string[] {
    const open = this.next(true);
    if (open.tok !== '(') throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.peek(true);
    if (tok === ')') { this.pos++; return ['']; }
    if (tok !== 'id' && tok !== ',') throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
    const vals = this.identifierList();
    if (this.next(true).tok !== ')') throw new Error(`found '${lit}', expected: ')'`);
    return vals;
  }

  /** A possibly empty, comma-separated list of possibly empty identifiers. */
  private identifierList(): string[] {
    const vals: string[] = [];
    for (;;) {
      const { tok, lit } = this.next(true);
      if (tok === 'id') {
        vals.push(lit);
        const t2 = this.peek(true);
        if (t2.tok === ',') continue;
        if (t2.tok === ')') return vals;
        throw new Error(`found '${t2.lit}', expected: ',' or ')'`);
      }
      if (tok !== ',') throw new Error(`found '${lit}', expected: ',', or identifier`);
      if (vals.length === 0) vals.push('');
      const t2 = this.peek(true).tok;
      if (t2 === ')') { vals.push(''); return vals; }
      if (t2 === ',') vals.push('');
    }
  }

  private exactValue(): string[] {
    const t = this.peek(true);
    if (t.tok === 'eos' || t.tok === ',') return [''];
    this.pos++;
    if (t.tok === 'id') return [t.lit];
    throw new Error(`found '${t.lit}', expected: identifier`);
  }
}

export const parseLabelSelector = (s: string): Selector => {
  try {
    return makeSelector(new Parser(lex(s)).parse());
  } catch (e) {
    throw badRequest((e as Error).message);
  }
};

const SELECTOR_OPS: Record<string, Operator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

export const labelSelectorAsSelector = (ls: LabelSelector | null | undefined): Selector => {
  if (!ls) return nothing();
  const exprs = ls.matchExpressions ?? [];
  const reqs: Requirement[] = [];
  try {
    for (const [k, v] of Object.entries(ls.matchLabels ?? {})) reqs.push(newRequirement(k, '=', [v]));
    for (const e of exprs) {
      const op = SELECTOR_OPS[e.operator];
      if (!op) throw new Error(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
      reqs.push(newRequirement(e.key, op, [...(e.values ?? [])]));
    }
  } catch (e) {
    throw badRequest((e as Error).message);
  }
  return makeSelector(reqs);
};

export const validateLabelSelector = (ls: LabelSelector | null | undefined, fldPath: string): StatusCause[] => {
  if (!ls) return [];
  const causes = validateLabels(ls.matchLabels, `${fldPath}.matchLabels`);
  (ls.matchExpressions ?? []).forEach((e, i) => {
    const p = `${fldPath}.matchExpressions[${i}]`;
    const values = e.values ?? [];
    if (e.operator === 'In' || e.operator === 'NotIn') {
      if (values.length === 0) causes.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (e.operator === 'Exists' || e.operator === 'DoesNotExist') {
      if (values.length > 0) causes.push(forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else {
      causes.push(invalidValue(`${p}.operator`, e.operator, 'not a valid selector operator'));
    }
    causes.push(...validateLabelName(e.key, `${p}.key`));
    values.forEach((v, j) => {
      for (const m of isValidLabelValue(v)) causes.push(invalidValue(`${p}.values[${j}]`, v, m));
    });
  });
  return causes;
};
