// The observer of the end-to-end benchmarks: one watch stream (from the resourceVersion of a list, so nothing is
// missed), each event line handed over raw with the time it arrived; the caller decodes only what it needs.
import type { Dispatcher, Pool } from 'undici';
import { call } from './load.js';

export interface LineWatch {
  close(): void;
  /** Rejects if the stream ends or fails before close(). */
  ended: Promise<void>;
}

export async function watchLines(p: Pool, path: string, onLine: (line: string, at: number) => void): Promise<LineWatch> {
  const list = JSON.parse((await call(p, 'GET', `${path}?limit=1`)).toString('utf8')) as { metadata: { resourceVersion: string } };
  const res = await p.request({ path: `${path}?watch=true&resourceVersion=${list.metadata.resourceVersion}&allowWatchBookmarks=false`, method: 'GET' });
  if (res.statusCode !== 200) throw new Error(`watch ${path}: ${res.statusCode} ${(await res.body.text()).slice(0, 300)}`);
  const body: Dispatcher.ResponseData['body'] = res.body;
  let closed = false;
  let rest = '';
  const ended = new Promise<void>((resolve, reject) => {
    body.on('data', (chunk: Buffer) => {
      const at = performance.now();
      const s = rest + chunk.toString('utf8');
      let start = 0;
      for (let nl = s.indexOf('\n'); nl >= 0; nl = s.indexOf('\n', start)) {
        onLine(s.slice(start, nl), at);
        start = nl + 1;
      }
      rest = s.slice(start);
    });
    body.on('end', () => (closed ? resolve() : reject(new Error(`watch ${path} ended`))));
    body.on('error', (e) => (closed ? resolve() : reject(e)));
  });
  ended.catch(() => undefined);
  return { ended, close: () => { closed = true; body.destroy(); } };
}

/** The value of the first `"key":"value"` in a JSON text at or after `from` (values without escapes). */
export const stringField = (s: string, key: string, from = 0): string | undefined => {
  const k = s.indexOf(`"${key}":"`, from);
  if (k < 0) return undefined;
  const v = k + key.length + 4;
  return s.slice(v, s.indexOf('"', v));
};

/** metadata.name of the object in a watch event line, read without decoding the rest (owner references have names too). */
export const objectName = (line: string): string | undefined => {
  let depth = 0;
  for (let i = line.indexOf('"metadata":{') + 11; i > 10 && i < line.length; i++) {
    const c = line[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') { if (--depth === 0) return undefined; } else if (c === '"') {
      let j = i + 1;
      while (line[j] !== '"') j += line[j] === '\\' ? 2 : 1;
      if (depth === 1 && line.startsWith('"name":"', i)) return line.slice(i + 8, line.indexOf('"', i + 8));
      i = j;
    }
  }
  return undefined;
};
