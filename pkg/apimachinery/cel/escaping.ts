// Property names as CEL expressions spell them (upstream: apiserver/pkg/cel/escaping.go): a property that is a CEL
// reserved word is written `__namespace__`, and `__`, `.`, `-` and `/` inside a name `__underscores__`, `__dot__`,
// `__dash__` and `__slash__` (`self.foo__dash__bar` reads property "foo-bar"). Only object properties are escaped;
// map keys are read as they are.

const RESERVED = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);
const SEQUENCES: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/** The property a field name in an expression stands for. */
export function unescapeField(name: string): string {
  if (!name.includes('__')) return name;
  if (name.length > 4 && name.startsWith('__') && name.endsWith('__') && RESERVED.has(name.slice(2, -2))) return name.slice(2, -2);
  return name.replace(/__(underscores|dot|dash|slash)__/g, (_, w: string) => SEQUENCES[w]!);
}
