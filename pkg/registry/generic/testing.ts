// Test support: every built-in registry over a store (memory by default), and a request context.
import { allDefaulters, allDefinitions, builtinGroupVersions } from '../../../api/index.js';
import type { Store } from '../../storage/interface.js';
import { createMemoryStore } from '../../storage/memory/store.js';
import type { RequestContext } from '../context.js';
import { createRegistries } from '../index.js';

export const registriesOver = (store: Store = createMemoryStore()) =>
  createRegistries({ store, groupVersions: builtinGroupVersions, definitions: allDefinitions, defaulters: allDefaulters, serviceClusterIpRange: '10.96.0.0/12' });

/** Runs `fn` with every built-in registry over a fresh memory store, stopped and closed afterwards. */
export async function withRegistries(fn: (regs: Awaited<ReturnType<typeof registriesOver>>) => Promise<void>): Promise<void> {
  const regs = await registriesOver();
  try {
    await fn(regs);
  } finally {
    regs.stop();
    await regs.store.close();
  }
}

export const testContext = (o: Partial<RequestContext> = {}): RequestContext =>
  ({ namespace: 'default', dryRun: false, fieldManager: 'test', fieldValidation: 'Strict', warnings: [], now: new Date(), ...o });
