// What `mini-kube up` runs, as data: one entry per process. The controller-manager, the scheduler and the
// kubelets join with one entry each (args, plus an identity from PkiPaths for their kubeconfig).
import type { CertKeyPaths, PkiPaths } from '../pkg/pki/index.js';

export interface ComponentSpec {
  /** Also names its log, DIR/logs/<name>.log, and its kubeconfig, DIR/<name>.kubeconfig. */
  name: string;
  /** Arguments after `mini-kube`. */
  args: string[];
  /** A client of the apiserver: up writes its kubeconfig and appends `--kubeconfig <file>`. */
  identity?: { user: string; pair: CertKeyPaths };
}

export interface ClusterLayout {
  dataDir: string;
  port: number;
  bindAddress: string;
  nodes: string[];
  runtime: 'process' | 'fake';
  pki: PkiPaths;
}

export const controlPlane = (c: ClusterLayout): ComponentSpec[] => [
  { name: 'apiserver', args: ['apiserver', '--data-dir', c.dataDir, '--secure-port', String(c.port), '--bind-address', c.bindAddress] },
  {
    name: 'controller-manager', args: ['controller-manager', '--use-service-account-credentials'],
    identity: { user: 'system:kube-controller-manager', pair: c.pki.controllerManager },
  },
  { name: 'scheduler', args: ['scheduler'], identity: { user: 'system:kube-scheduler', pair: c.pki.scheduler } },
];
