// The two ways the tests judge a run of the real kubectl: strictly (exit 0 and not a word on stderr, not even a
// warning) or leniently (exit 0; a failure names the command and quotes kubectl).
import { expect } from 'vitest';

export interface KubectlRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The stdout of a run that must exit 0 with an empty stderr. */
export async function cleanStdout(run: Promise<KubectlRun>): Promise<string> {
  const r = await run;
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

/** The run of `kubectl ARGS`, which must exit 0; its stderr may carry warnings. */
export async function succeeded(run: Promise<KubectlRun>, args: string[]): Promise<KubectlRun> {
  const r = await run;
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r;
}
