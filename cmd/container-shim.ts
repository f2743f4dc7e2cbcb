// `mini-kube container-shim STATE_DIR`: not for users; the kubelet's process runtime starts one per container, a
// detached process that owns it across kubelet restarts (pkg/kubelet/runtime/shim.ts).
export const main = async (argv: readonly string[]): Promise<void> => {
  const [stateDir] = argv;
  if (argv.length !== 1 || !stateDir) {
    process.stderr.write('Usage: mini-kube container-shim STATE_DIR\n');
    process.exit(2);
  }
  const { runShim } = await import('../pkg/kubelet/runtime/shim.js');
  await runShim(stateDir);
};
