// The etcd3 backend against a real etcd: the same behaviour suite as every backend, each test on a fresh etcd.
import pino from 'pino';
import { afterAll, describe, it } from 'vitest';
import { type EtcdServer, haveEtcd, startEtcd } from '../../../test/support/etcd.js';
import type { Store } from '../interface.js';
import { storeSuite } from '../testing/suite.js';
import { openEtcdStore } from './store.js';

const servers: EtcdServer[] = [];
const serverOf = new WeakMap<Store, EtcdServer>();
afterAll(() => Promise.all(servers.map((s) => s.stop())));
const logger = pino({ level: 'silent' });

if (haveEtcd()) {
  storeSuite('etcd3', {
    async open(opts) {
      const etcd = await startEtcd();
      servers.push(etcd);
      const store = await openEtcdStore({ servers: [etcd.url], compaction: opts?.compaction, logger });
      serverOf.set(store, etcd);
      return store;
    },
    async reopen(store) {
      const etcd = serverOf.get(store)!;
      await store.close();
      const again = await openEtcdStore({ servers: [etcd.url], logger });
      serverOf.set(again, etcd);
      return again;
    },
    unorderedConcurrentWrites: true,
    historyStartsAtOpen: true,
  });
} else {
  describe('Store: etcd3', () => it.skip('needs an etcd binary on PATH (apt-get install etcd-server; .ci/run does)', () => {}));
}
