// The `mini-kube` binary (package.json "bin").
import { commandLine, runCli, upstreamName } from './cli.js';
import { setInvokedAs } from './flags.js';
import { exitWithParent } from './signals.js';

// run by a link named kube-apiserver (envtest's), help and flag errors name kube-apiserver
setInvokedAs(upstreamName(process.argv[1]));
exitWithParent();
runCli(commandLine(process.argv[1], process.argv.slice(2))).then((code) => {
  if (code !== undefined) process.exitCode = code;
}, (e: unknown) => {
  process.stderr.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
