// `mini-kube <command>`: each command's module is loaded only when chosen, so one never pays for another.
import { basename } from 'node:path';
import { packageVersion } from './package-info.js';

interface Command {
  summary: string;
  run?: (argv: readonly string[]) => Promise<void>;
  /** Run by mini-kube itself, not listed. */
  internal?: boolean;
}

const commands: Record<string, Command> = {
  up: { summary: 'Start the whole control plane (apiserver, controllers, scheduler, kubelets)', run: async (a) => (await import('./up.js')).main(a) },
  apiserver: { summary: 'Run the API server alone', run: async (a) => (await import('./apiserver.js')).main(a) },
  'controller-manager': { summary: 'Run the controllers', run: async (a) => (await import('./controller-manager.js')).main(a) },
  scheduler: { summary: 'Run the scheduler', run: async (a) => (await import('./scheduler.js')).main(a) },
  kubelet: { summary: 'Run a node agent', run: async (a) => (await import('./kubelet.js')).main(a) },
  dns: { summary: 'Run the cluster DNS (service names in the cluster domain)', run: async (a) => (await import('./dns.js')).main(a) },
  proxy: { summary: 'Run the service proxy (ClusterIPs and NodePorts to endpoints)', run: async (a) => (await import('./proxy.js')).main(a) },
  'metrics-server': { summary: 'Serve the resource metrics API (kubectl top) from the kubelets', run: async (a) => (await import('./metrics-server.js')).main(a) },
  'container-shim': { summary: 'Own one container of the kubelet\'s process runtime', internal: true, run: async (a) => (await import('./container-shim.js')).main(a) },
};

const usage = (): string => [
  'mini-kube: a Kubernetes control plane in TypeScript.',
  '',
  'Usage:',
  '  mini-kube <command> [flags]',
  '',
  'Commands:',
  ...Object.entries(commands).filter(([, c]) => !c.internal).map(([name, c]) => `  ${name.padEnd(20)}${c.summary}`),
  '',
  'Flags:',
  '  -h, --help       help for mini-kube',
  '      --version    print the version',
  '',
  'Use "mini-kube <command> --help" for the flags of a command.',
  '',
].join('\n');

/** The commands run under upstream's binary names, by way of a link so named (as k3s's multicall binary). */
const UPSTREAM_NAMES: Record<string, string> = {
  'kube-apiserver': 'apiserver', 'kube-controller-manager': 'controller-manager', 'kube-scheduler': 'scheduler', kubelet: 'kubelet', 'kube-proxy': 'proxy',
};

/**
 * The command line as `mini-kube` reads it: a link named kube-apiserver (envtest runs `$KUBEBUILDER_ASSETS/kube-apiserver`
 * or `$TEST_ASSET_KUBE_APISERVER` with kube-apiserver's flags) runs `mini-kube apiserver`, and so on.
 */
export const commandLine = (program: string | undefined, args: readonly string[]): readonly string[] => {
  const name = upstreamName(program);
  return name ? [UPSTREAM_NAMES[name]!, ...args] : args;
};

/** The upstream binary name the program was run by (a link named kube-apiserver), else undefined. */
export const upstreamName = (program: string | undefined): string | undefined => {
  const name = basename(program ?? '');
  return Object.hasOwn(UPSTREAM_NAMES, name) ? name : undefined;
};

/** Returns the exit code when the command is done at once; a running server keeps the process alive itself. */
export const runCli = async (argv: readonly string[]): Promise<number | undefined> => {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage());
    return 0;
  }
  if (name === '--version' || name === 'version') {
    process.stdout.write(`mini-kube v${packageVersion()}\n`);
    return 0;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`Error: unknown command "${name}" for "mini-kube"\nRun 'mini-kube --help' for usage.\n`);
    return 2;
  }
  if (!command.run) {
    process.stderr.write(`mini-kube ${name} arrives in a later release.\n`);
    return 1;
  }
  await command.run(rest);
  return undefined;
};
