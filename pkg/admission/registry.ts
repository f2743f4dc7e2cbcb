// Admission plugins by name, and the chain that --enable/--disable-admission-plugins select.
import { chain } from './chain.js';
import type { Admission, AdmissionPlugin } from './interface.js';

export type PluginFactory = () => AdmissionPlugin;

/** Upstream's recommended order for the plugins we have; enabled by default unless listed in `offByDefault`. */
export function buildAdmission(
  factories: Record<string, PluginFactory>,
  order: string[],
  opts: { enable: string[]; disable: string[]; offByDefault?: string[] },
): Admission {
  for (const name of [...opts.enable, ...opts.disable]) {
    if (!factories[name]) throw new Error(`unknown admission plugin "${name}"; known: ${Object.keys(factories).sort().join(', ')}`);
  }
  const off = new Set(opts.offByDefault ?? []);
  const on = order.filter((n) => (opts.enable.includes(n) || !off.has(n)) && !opts.disable.includes(n));
  return chain(on.map((n) => factories[n]!()));
}
