import { storeSuite } from '../testing/suite.js';
import { createMemoryStore } from './store.js';

storeSuite('memory', { open: async (opts) => createMemoryStore(opts) });
