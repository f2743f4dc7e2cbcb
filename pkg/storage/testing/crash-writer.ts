// A child process for the crash test: writes to a LevelDB store as fast as it can and prints each
// acknowledged write ("<key> <revision>") until it is killed. It keeps few revisions, so that compactions
// (records deleted and rewritten) run all along and the kill may land in one.
import { openLevelStore } from '../leveldb/store.js';

const dir = process.argv[2];
const store = await openLevelStore(dir, { compaction: { keepRevisions: 300, intervalMs: 60_000 } });
const writer = async (w: number): Promise<void> => {
  for (let i = 0; ; i++) {
    const key = `/registry/pods/w${w}/p${i % 20}`;
    const kv = i < 20
      ? await store.create(key, { kind: 'Pod', metadata: { name: `p${i}` }, n: i })
      : i % 7 === 0
        ? await store.delete(key).then(() => store.create(key, { kind: 'Pod', metadata: { name: `p${i}` }, n: i }))
        : await store.guaranteedUpdate(key, (cur) => ({ ...cur!.object, n: i }));
    process.stdout.write(`${key} ${kv.modRevision}\n`);
  }
};
await Promise.all(Array.from({ length: 16 }, (_, w) => writer(w)));
