import { describe, expect, it } from 'vitest';
import type { KeyValue, WatchEventType } from '../interface.js';
import { keyValueOf } from '../keyvalue.js';
import { RecordIndex, type RecordChange } from './record-index.js';

const kv = (key: string, revision: number): KeyValue => keyValueOf(key, Buffer.from('{}'), revision, revision);
const ev = (type: WatchEventType, key: string, revision: number) => ({ type, key, revision, kv: kv(key, revision) });
const shown = (changes: RecordChange[]) =>
  changes.map((c) => (c.type === 'del' ? `del ${c.key}` : `rewrite ${c.key}: ${c.entries.map((e) => `${e.key}@${e.revision}`).join(' ')}`));

describe('RecordIndex', () => {
  it('leaves records of creates alone', () => {
    const index = new RecordIndex();
    index.add('e1', [ev('ADDED', 'a', 1), ev('ADDED', 'b', 2)]);
    index.add('e3', [ev('ADDED', 'c', 3)]);
    expect(index.compact(3)).toEqual([]);
  });

  it('keeps a superseded state while the event after it is kept, then deletes its record', () => {
    const index = new RecordIndex();
    index.add('e1', [ev('ADDED', 'a', 1)]);
    index.add('e2', [ev('MODIFIED', 'a', 2)]);
    expect(index.compact(1)).toEqual([]); // a@1 is the state before the kept event a@2
    expect(shown(index.compact(2))).toEqual(['del e1']);
    expect(index.compact(2)).toEqual([]);
  });

  it('rewrites a record once half of it is dead, and only then', () => {
    const index = new RecordIndex();
    index.add('e1', [ev('ADDED', 'a', 1), ev('ADDED', 'b', 2), ev('ADDED', 'c', 3)]);
    index.add('e4', [ev('MODIFIED', 'a', 4)]);
    expect(index.compact(4)).toEqual([]); // one of three dead: left as written
    index.add('e5', [ev('MODIFIED', 'b', 5)]);
    expect(shown(index.compact(5))).toEqual(['rewrite e1: c@3']);
    index.add('e6', [ev('MODIFIED', 'c', 6)]);
    expect(shown(index.compact(6))).toEqual(['del e1']); // a@4, b@5 and c@6 are the latest
  });

  it('drops a deletion only once nothing older of its key is left on disk', () => {
    const index = new RecordIndex();
    index.add('e1', [ev('ADDED', 'a', 1), ev('ADDED', 'b', 2), ev('ADDED', 'c', 3)]);
    index.add('e4', [ev('DELETED', 'a', 4)]);
    // a@1 is dead but its record stays (two of three live): the deletion must stay with it
    expect(index.compact(4)).toEqual([]);
    index.add('e5', [ev('DELETED', 'b', 5)]);
    expect(shown(index.compact(5))).toEqual(['rewrite e1: c@3', 'del e4', 'del e5']);
  });

  it('drops a deletion that a record shares with the create it deletes over two compactions, the older first', () => {
    const index = new RecordIndex();
    index.add('e1', [ev('ADDED', 'a', 1), ev('DELETED', 'a', 2)]);
    expect(shown(index.compact(2))).toEqual(['rewrite e1: a@2']);
    expect(shown(index.compact(2))).toEqual(['del e1']);
  });

  it('lets a re-created key go of what came before its create', () => {
    const index = new RecordIndex();
    index.add('e1', [ev('ADDED', 'a', 1)]);
    index.add('e2', [ev('DELETED', 'a', 2)]);
    index.add('e3', [ev('ADDED', 'a', 3)]);
    // nothing before a create is an event's previous state, so both go once compacted past the deletion
    expect(shown(index.compact(2))).toEqual(['del e1', 'del e2']);
  });

  it('treats an object record of the earlier layout as a one-entry record', () => {
    const index = new RecordIndex();
    index.add('o/a', [ev('MODIFIED', 'a', 5)]);
    index.add('o/b', [ev('MODIFIED', 'b', 6)]);
    index.add('e8', [ev('MODIFIED', 'a', 8), ev('DELETED', 'b', 9)]);
    expect(shown(index.compact(7))).toEqual([]);
    // the object records go first, so b's deletion goes in the same pass
    expect(shown(index.compact(9))).toEqual(['del o/a', 'del o/b', 'rewrite e8: a@8']);
    expect(index.compact(9)).toEqual([]);
  });

  it('never skips a record that crosses the compacted revision', () => {
    const index = new RecordIndex();
    index.add('e1', [ev('ADDED', 'a', 1), ev('MODIFIED', 'a', 2), ev('MODIFIED', 'a', 3)]);
    expect(index.compact(2)).toEqual([]);
    expect(shown(index.compact(3))).toEqual(['rewrite e1: a@3']);
  });
});
