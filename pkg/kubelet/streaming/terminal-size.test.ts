import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodeTerminalSize, readTerminalSizes, type TerminalSize } from './terminal-size.js';

describe('decodeTerminalSize: encoding/json into TerminalSize{Width, Height uint16}', () => {
  it('matches the field names regardless of case, as the struct has no JSON tags', () => {
    expect(decodeTerminalSize('{"Width":101,"Height":41}')).toEqual({ width: 101, height: 41 });
    // @kubernetes/client-node's terminal-size-queue.js
    expect(decodeTerminalSize('{"height":41,"width":101}')).toEqual({ width: 101, height: 41 });
    expect(decodeTerminalSize('{"WIDTH":1,"hEiGhT":2}')).toEqual({ width: 1, height: 2 });
    // an escaped key is decoded first; a fold beyond ASCII ("İ") is no match
    expect(decodeTerminalSize('{"\\u0077idth":7,"W\\u0130DTH":9}')).toEqual({ width: 7, height: 0 });
  });

  it('takes the last of repeated keys, in the order of the text, whatever their case', () => {
    expect(decodeTerminalSize('{"width":1,"Width":2,"width":3}')).toEqual({ width: 3, height: 0 });
    expect(decodeTerminalSize('{"Width":1,"width":2,"Width":3,"height":4,"Height":5}')).toEqual({ width: 3, height: 5 });
  });

  it('skips unknown keys and nulls; null itself is a zero size', () => {
    expect(decodeTerminalSize('{"Width":80,"Height":null,"x":{"Width":1},"y":[1,"}"]}')).toEqual({ width: 80, height: 0 });
    expect(decodeTerminalSize('{"Width":80,"Width":null}')).toEqual({ width: 80, height: 0 });
    expect(decodeTerminalSize('null')).toEqual({ width: 0, height: 0 });
    expect(decodeTerminalSize(' { } ')).toEqual({ width: 0, height: 0 });
  });

  it('fails where Go returns an error: out of uint16, not an unsigned integer, not an object, bad JSON', () => {
    for (const text of [
      '{"Width":65536,"Height":1}', '{"Width":-1,"Height":1}', '{"Width":80.5,"Height":1}', '{"Width":1e2,"Height":1}',
      '{"Width":"80","Height":24}', '{"Width":true,"Height":24}', '{"Width":[80],"Height":24}', '{"Width":80,"Height":{}}',
      '[80,24]', '"80x24"', '80', 'true', '{"Width":80,}', '{"Width":080}', '{Width:80}',
    ]) expect(decodeTerminalSize(text), text).toBeUndefined();
    expect(decodeTerminalSize('{"Width":65535,"Height":0}')).toEqual({ width: 65535, height: 0 });
  });
});

describe('readTerminalSizes: a json.Decoder on the resize stream', () => {
  /** The sizes applied once the chunks (strings or bytes) have gone through. */
  const read = async (chunks: (string | Buffer)[]): Promise<TerminalSize[]> => {
    const stream = new PassThrough();
    const seen: TerminalSize[] = [];
    readTerminalSizes(stream, (s) => seen.push(s));
    for (const c of chunks) stream.write(c);
    await new Promise((r) => setImmediate(r));
    return seen;
  };

  it('reads values one after another, however the stream cuts them', async () => {
    expect(await read(['{"width":101,"height":41}', '{"Width":80,', '"Height":24}\n{"Width":1', '0,"Height":5} ', 'null{"width":3,"height":"}"'])).toEqual([
      { width: 101, height: 41 }, { width: 80, height: 24 }, { width: 10, height: 5 }, { width: 0, height: 0 },
    ]);
  });

  it('applies nothing after a value that fails to decode, as upstream\'s loop ends at the first error', async () => {
    expect(await read(['{"Width":80,"Height":24}{"Width":70000,"Height":5}{"Width":90,"Height":30}'])).toEqual([{ width: 80, height: 24 }]);
    expect(await read(['{"Width":80,"Height":24}', '{"Width":x}', '{"Width":90,"Height":30}'])).toEqual([{ width: 80, height: 24 }]);
  });

  it('decodes UTF-8 cut between chunks', async () => {
    const text = Buffer.from('{"é":1,"Width":2,"Height":3}');
    expect(await read([text.subarray(0, 3), text.subarray(3)])).toEqual([{ width: 2, height: 3 }]);
  });
});
