// --runtime-config: which built-in group versions (and resources) are served, as kube-apiserver reads it. Keys are
// api/all, api/ga, api/beta, api/alpha (applied in that order), then <group>/<version> and <group>/<version>/<resource>;
// a value is a bool, empty meaning true. Everything is served by default but for what upstream 1.32 no longer
// serves: policy/v1beta1 (PodSecurityPolicy) comes with its admission plugin or when asked for here.
import type { GroupVersion } from '../../api/types.js';

const MATCHERS: [string, (version: string) => boolean][] = [
  ['api/all', () => true],
  ['api/ga', (v) => /^v\d+$/.test(v)],
  ['api/beta', (v) => /^v\d+beta\d+$/.test(v)],
  ['api/alpha', (v) => /^v\d+alpha\d+$/.test(v)],
];

/** Served by this binary but off unless asked for (removed upstream before 1.32). */
const OFF_BY_DEFAULT = new Set(['policy/v1beta1']);

const gvKey = (gv: GroupVersion): string => `${gv.group}/${gv.version}`;

const parseBool = (key: string, value: string): boolean => {
  if (value === '') return true;
  const v = value.toLowerCase();
  if (['1', 't', 'true'].includes(v)) return true;
  if (['0', 'f', 'false'].includes(v)) return false;
  throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
};

/** The flag's comma list as key → value ("a/b", "a/b=false"). */
export const parseRuntimeConfig = (items: readonly string[]): Map<string, string> =>
  new Map(items.filter(Boolean).map((item) => {
    const eq = item.indexOf('=');
    return eq < 0 ? [item.trim(), ''] : [item.slice(0, eq).trim(), item.slice(eq + 1).trim()];
  }));

/**
 * The group versions to serve, each with only its enabled resources; throws upstream's messages for a bad key.
 * `pspPlugin`: the PodSecurityPolicy admission plugin is on, which needs policy/v1beta1.
 */
export function servedGroupVersions(all: readonly GroupVersion[], config: ReadonlyMap<string, string>, pspPlugin: boolean): GroupVersion[] {
  const values = new Map([...config].map(([k, v]) => [k, parseBool(k, v)]));
  if (values.size === 1 && values.get('api/all') === false) throw new Error('invalid key with only api/all=false');
  const known = new Map(all.map((gv) => [gvKey(gv), gv]));
  const unknownGroups = new Set<string>();
  for (const key of values.keys()) {
    if (MATCHERS.some(([m]) => m === key)) continue;
    const tokens = key.split('/');
    if (tokens.length !== 2 && tokens.length !== 3) throw new Error(`runtime-config invalid key ${key}`);
    const [group = '', version = ''] = tokens;
    if (!all.some((gv) => gv.group === group)) unknownGroups.add(group);
    else if (!known.has(`${group}/${version}`)) throw new Error(`group version ${group}/${version} that has not been registered`);
  }
  if (unknownGroups.size) throw new Error(`unknown api groups ${[...unknownGroups].sort().join(',')}`);

  const enabled = new Map(all.map((gv) => [gvKey(gv), !OFF_BY_DEFAULT.has(gvKey(gv))]));
  for (const [matcher, matches] of MATCHERS) {
    const on = values.get(matcher);
    if (on === undefined) continue;
    for (const gv of all) if (matches(gv.version)) enabled.set(gvKey(gv), on);
  }
  if (pspPlugin) {
    if (values.get('policy/v1beta1') === false) throw new Error('the PodSecurityPolicy admission plugin needs policy/v1beta1, which --runtime-config turns off');
    enabled.set('policy/v1beta1', true);
  }
  const resourceSwitches = new Map<string, boolean>();
  for (const [key, on] of values) {
    const tokens = key.split('/');
    if (tokens.length === 2 && known.has(key)) enabled.set(key, on);
    // a resource switched on turns its group version on too (upstream: EnableResources)
    if (tokens.length === 3) {
      resourceSwitches.set(key, on);
      if (on) enabled.set(`${tokens[0]}/${tokens[1]}`, true);
    }
  }
  return all.filter((gv) => enabled.get(gvKey(gv)))
    .map((gv) => ({ ...gv, resources: gv.resources.filter((rt) => resourceSwitches.get(`${gvKey(gv)}/${rt.plural}`) !== false) }));
}
