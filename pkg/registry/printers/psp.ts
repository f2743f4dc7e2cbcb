// PodSecurityPolicies, as upstream's printPodSecurityPolicy shows them: the privileged flag, allowed capabilities,
// the rule of each strategy, the read-only root filesystem flag and the allowed volume types (no Age column).
import { column, nameColumn, type Printer } from './types.js';

export const podSecurityPolicyPrinter: Printer = {
  columns: [
    nameColumn,
    column('Priv', 'Whether containers may run privileged.'),
    column('Caps', 'Capabilities containers may add.'),
    column('SELinux', 'The SELinux strategy.'),
    column('RunAsUser', 'The runAsUser strategy.'),
    column('FsGroup', 'The fsGroup strategy.'),
    column('SupGroup', 'The supplemental groups strategy.'),
    column('ReadOnlyRootFs', 'Whether containers must run with a read-only root filesystem.'),
    column('Volumes', 'The volume types pods may use.'),
  ],
  cells: (psp) => {
    const spec = psp.spec ?? {};
    return [
      psp.metadata?.name ?? '',
      String(spec.privileged ?? false),
      ((spec.allowedCapabilities ?? []) as string[]).join(','),
      spec.seLinux?.rule ?? '',
      spec.runAsUser?.rule ?? '',
      spec.fsGroup?.rule ?? '',
      spec.supplementalGroups?.rule ?? '',
      spec.readOnlyRootFilesystem ?? false,
      ((spec.volumes ?? []) as string[]).join(','),
    ];
  },
};
