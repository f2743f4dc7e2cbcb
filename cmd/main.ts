#!/usr/bin/env node
// The `mini-kube` binary (package.json "bin").
import { commandLine, runCli } from './cli.js';

runCli(commandLine(process.argv[1], process.argv.slice(2))).then((code) => {
  if (code !== undefined) process.exitCode = code;
}, (e: unknown) => {
  process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
