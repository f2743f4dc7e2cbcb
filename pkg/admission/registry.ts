// Admission plugins by name, and the chain that --enable/--disable-admission-plugins select.
import { chain } from './chain.js';
import type { Admission, AdmissionPlugin } from './interface.js';

export type PluginFactory = () => AdmissionPlugin;

/** The plugins of `order` that are on (enabled by default unless listed in `offByDefault`), built in that order. */
export function buildAdmission(
  factories: Record<string, PluginFactory>,
  order: readonly string[],
  opts: { enable: string[]; disable: string[]; offByDefault?: readonly string[] },
): Admission {
  for (const name of [...opts.enable, ...opts.disable]) {
    if (!factories[name]) throw new Error(`unknown admission plugin "${name}"; known: ${Object.keys(factories).sort().join(', ')}`);
  }
  return chain(enabledPlugins(order, opts).map((n) => factories[n]!()));
}

export function enabledPlugins(order: readonly string[], opts: { enable: string[]; disable: string[]; offByDefault?: readonly string[] }): string[] {
  const off = new Set(opts.offByDefault ?? []);
  return order.filter((n) => (opts.enable.includes(n) || !off.has(n)) && !opts.disable.includes(n));
}
