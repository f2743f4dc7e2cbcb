// Cell formatting helpers shared by the printers: labels, label selectors, container lists, booleans,
// "a,b,c + 2 more..." lists and access modes, each printing what upstream's helpers print.
import type { KubeObject, OwnerReference } from '../../../api/types.js';

export type Labels = Record<string, string> | undefined | null;

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

/** labels.FormatLabels: "a=1,b=2" sorted by key, "<none>" when empty. */
export function formatLabels(labels: Labels): string {
  const keys = Object.keys(labels ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${labels![k]}`).join(',');
}

function requirementString(r: LabelSelectorRequirement): string | undefined {
  const values = [...new Set(r.values ?? [])].sort().join(',');
  switch (r.operator) {
    case 'In':
      return `${r.key} in (${values})`;
    case 'NotIn':
      return `${r.key} notin (${values})`;
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
    default:
      return undefined;
  }
}

/**
 * metav1.LabelSelectorAsSelector(...).String(): requirements sorted by key, "" for a nil or empty selector,
 * undefined when an operator is invalid.
 */
export function selectorString(selector: LabelSelector | undefined | null): string | undefined {
  if (!selector) return '';
  const reqs: { key: string; text: string }[] = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => ({
    key: k,
    text: `${k}=${v}`,
  }));
  for (const expr of selector.matchExpressions ?? []) {
    const text = requirementString(expr);
    if (text === undefined) return undefined;
    reqs.push({ key: expr.key, text });
  }
  reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return reqs.map((r) => r.text).join(',');
}

/** metav1.FormatLabelSelector: the selector string, "<none>" when it selects nothing in particular. */
export function formatLabelSelector(selector: LabelSelector | undefined | null): string {
  const s = selectorString(selector);
  if (s === undefined) return '<error>';
  return s === '' ? '<none>' : s;
}

interface Container {
  name?: string;
  image?: string;
}

/** The Containers and Images cells: names and images joined by commas. */
export function containerCells(containers: Container[] | undefined | null): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
}

/** The Containers and Images cells of an object's pod template at spec.template. */
export const templateContainerCells = (spec: { template?: { spec?: { containers?: Container[] } } } | undefined) =>
  containerCells(spec?.template?.spec?.containers);

/** printBoolPtr: "True", "False" or "<unset>". */
export function boolPtr(value: unknown): string {
  if (typeof value !== 'boolean') return '<unset>';
  return value ? 'True' : 'False';
}

/** The first `max` entries joined by commas, then " + N more..." where N counts all that did not fit. */
export function listWithMore(items: string[], max: number, total = items.length): string {
  const shown = items.slice(0, max).join(',');
  return total > max ? `${shown} + ${total - max} more...` : shown;
}

const ACCESS_MODES: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** helper.GetAccessModesAsString: "RWO,ROX,RWX,RWOP" in that fixed order, duplicates dropped. */
export function accessModes(modes: string[] | undefined | null): string {
  const set = new Set(modes ?? []);
  return ACCESS_MODES.filter(([mode]) => set.has(mode))
    .map(([, short]) => short)
    .join(',');
}

/** net.JoinHostPort: IPv6 addresses are bracketed. */
export const joinHostPort = (host: string, port: number | string): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

/** The object that controls this one (the ownerReference with controller: true). */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}
