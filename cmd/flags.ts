// One flag parser for every subcommand, shaped like pflag (what kube-* binaries use): `--flag value` and
// `--flag=value`, booleans set by presence or `=true|false`, comma lists that repeat, `k=v,...` maps.

interface FlagBase<K extends string, T> {
  kind: K;
  default: T;
  help: string;
  choices?: readonly string[];
}
export type StringFlag = FlagBase<'string', string>;
export type IntFlag = FlagBase<'int', number>;
export type Float32Flag = FlagBase<'float32', number>;
export type BoolFlag = FlagBase<'bool', boolean>;
export type ListFlag = FlagBase<'list', string[]>;
export type BoolMapFlag = FlagBase<'boolMap', Record<string, boolean>> & {
  /** The keys accepted and why another is refused (after pflag's `invalid argument "<value>" for "--<flag>" flag: `); unset, any key. */
  known?: { keys: ReadonlySet<string>; refusal: (key: string) => string };
};
export type Flag = StringFlag | IntFlag | Float32Flag | BoolFlag | ListFlag | BoolMapFlag;
export type FlagSpec = Record<string, Flag>;
export type FlagValues<S extends FlagSpec> = { [K in keyof S]: S[K]['default'] };

export const flag = {
  string: (def: string, help: string, choices?: readonly string[]): StringFlag => ({ kind: 'string', default: def, help, choices }),
  int: (def: number, help: string): IntFlag => ({ kind: 'int', default: def, help }),
  float32: (def: number, help: string): Float32Flag => ({ kind: 'float32', default: def, help }),
  bool: (def: boolean, help: string): BoolFlag => ({ kind: 'bool', default: def, help }),
  list: (def: string[], help: string): ListFlag => ({ kind: 'list', default: def, help }),
  boolMap: (help: string, known?: BoolMapFlag['known']): BoolMapFlag => ({ kind: 'boolMap', default: {}, help, ...(known ? { known } : {}) }),
  /** --feature-gates: featuregate.Set's refusal of a gate it does not know, in pflag's wrapping. */
  featureGates: (help: string, known: ReadonlySet<string>): BoolMapFlag =>
    flag.boolMap(help, { keys: known, refusal: (key) => `unrecognized feature gate: ${key}` }),
};

/** A wrong command line: the caller prints it and exits 2. */
export class FlagError extends Error {
  override name = 'FlagError';
}

const parseBool = (name: string, raw: string): boolean => {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(raw)) return false;
  throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: must be true or false`);
};

const convert = (name: string, f: Flag, raw: string, current: unknown, seen: boolean): unknown => {
  switch (f.kind) {
    case 'string':
      if (f.choices && !f.choices.includes(raw)) {
        throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: must be one of ${f.choices.join(', ')}`);
      }
      return raw;
    case 'int':
      if (!/^-?\d+$/.test(raw)) throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: not an integer`);
      return Number(raw);
    case 'float32':
      // strconv.ParseFloat's decimal notation (no spaces, no hex)
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw)) {
        throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
      }
      return Number(raw);
    case 'bool':
      return parseBool(name, raw);
    case 'list': {
      const items = raw === '' ? [] : raw.split(',').map((s) => s.trim());
      return seen ? [...(current as string[]), ...items] : items;
    }
    case 'boolMap': {
      const map: Record<string, boolean> = seen ? { ...(current as Record<string, boolean>) } : {};
      for (const pair of raw.split(',').filter((p) => p.trim() !== '')) {
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: "${pair}" is not key=true|false`);
        const key = pair.slice(0, eq).trim();
        if (f.known && !f.known.keys.has(key)) throw new FlagError(`invalid argument "${raw}" for "--${name}" flag: ${f.known.refusal(key)}`);
        map[key] = parseBool(name, pair.slice(eq + 1).trim());
      }
      return map;
    }
  }
};

export interface Parsed<S extends FlagSpec> {
  values: FlagValues<S>;
  help: boolean;
  /** Flags that appeared on the command line. */
  given: Set<keyof S & string>;
}

export const parseFlags = <S extends FlagSpec>(argv: readonly string[], spec: S): Parsed<S> => {
  const values = Object.fromEntries(Object.entries(spec).map(([k, f]) => [k, structuredClone(f.default)])) as Record<string, unknown>;
  const given = new Set<string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') { help = true; continue; }
    if (!arg.startsWith('--') || arg === '--') {
      throw new FlagError(arg.startsWith('-') && arg !== '--' ? `unknown shorthand flag: '${arg.slice(1, 2)}' in ${arg}` : `unexpected argument "${arg}"`);
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const f = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!f) throw new FlagError(`unknown flag: --${name}`);
    let raw: string;
    if (eq >= 0) raw = arg.slice(eq + 1);
    else if (f.kind === 'bool') raw = 'true';
    else if (i + 1 < argv.length) raw = argv[++i] as string;
    else throw new FlagError(`flag needs an argument: --${name}`);
    values[name] = convert(name, f, raw, values[name], given.has(name));
    given.add(name);
  }
  return { values: values as FlagValues<S>, help, given: given as Set<keyof S & string> };
};

const typeName: Record<Flag['kind'], string> = { string: 'string', int: 'int', float32: 'float32', bool: '', list: 'strings', boolMap: 'mapStringBool' };

const defaultText = (f: Flag): string => {
  const d = f.default;
  if (f.kind === 'bool') return d ? ' (default true)' : '';
  if (f.kind === 'string') return d === '' ? '' : ` (default "${d as string}")`;
  if (f.kind === 'list') return (d as string[]).length ? ` (default [${(d as string[]).join(',')}])` : '';
  if (f.kind === 'boolMap') return '';
  return ` (default ${String(d)})`;
};

/**
 * The name the command was run by, when a link with an upstream binary's name ran it (kube-apiserver): its help and
 * errors name it, as upstream's do. Set once at start-up by the binary.
 */
let invokedAs: string | undefined;
export const setInvokedAs = (name: string | undefined): void => { invokedAs = name; };
const commandName = (command: string): string => invokedAs ?? `mini-kube ${command}`;

export const usage = (command: string, summary: string, spec: FlagSpec): string => {
  const rows = Object.entries(spec).map(([name, f]) => [`      --${name}${typeName[f.kind] ? ` ${typeName[f.kind]}` : ''}`, `${f.help}${defaultText(f)}`]);
  const width = Math.max(...rows.map(([l]) => (l as string).length)) + 3;
  return [
    `${summary}`, '', `Usage:`, `  ${commandName(command)} [flags]`, '', 'Flags:',
    `  -h, --help${' '.repeat(width - 12)}help for ${invokedAs ?? command}`,
    ...rows.map(([l, r]) => `${(l as string).padEnd(width)}${r as string}`),
    '',
  ].join('\n');
};

/** The subcommands' entry: prints help (exit 0) or a flag error with a hint (exit 2), else the values. */
export const parseOrExit = <S extends FlagSpec>(command: string, summary: string, argv: readonly string[], spec: S): Parsed<S> => {
  try {
    const parsed = parseFlags(argv, spec);
    if (parsed.help) {
      process.stdout.write(usage(command, summary, spec));
      process.exit(0);
    }
    return parsed;
  } catch (e) {
    if (e instanceof FlagError) exitWithFlagError(command, e);
    throw e;
  }
};

export const exitWithFlagError = (command: string, e: FlagError): never => {
  process.stderr.write(`Error: ${e.message}\nRun '${commandName(command)} --help' for usage.\n`);
  process.exit(2);
};
