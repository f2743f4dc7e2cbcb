// Who a container runs as (upstream: securitycontext.DetermineEffectiveSecurityContext, kuberuntime's
// verifyRunAsNonRoot): the container's runAsUser / runAsGroup over the pod's, the pod's supplementalGroups and fsGroup
// as its groups; runAsNonRoot refuses a container that would run as root. Every image of the catalog runs as root.
import type { KubeObject } from '../client/index.js';
import { ContainerConfigError } from './env.js';
import type { ContainerUser } from './runtime/types.js';

interface SecurityContext { runAsUser?: number; runAsGroup?: number; runAsNonRoot?: boolean; supplementalGroups?: number[]; fsGroup?: number }

/** The user to run the container as (undefined: the image's, root), or a ContainerConfigError in upstream's words. */
export function containerUser(pod: KubeObject, container: { name: string; securityContext?: SecurityContext }, podDesc: string): ContainerUser | undefined {
  const podSc = (pod.spec?.securityContext ?? {}) as SecurityContext;
  const sc = container.securityContext ?? {};
  const uid = sc.runAsUser ?? podSc.runAsUser;
  const gid = sc.runAsGroup ?? podSc.runAsGroup;
  if (sc.runAsNonRoot ?? podSc.runAsNonRoot) {
    if (uid === 0) throw new ContainerConfigError(`container's runAsUser breaks non-root policy (pod: "${podDesc}", container: ${container.name})`);
    if (uid === undefined) throw new ContainerConfigError(`container has runAsNonRoot and image will run as root (pod: "${podDesc}", container: ${container.name})`);
  }
  if (uid === undefined && gid === undefined) return undefined;
  const groups = [...(podSc.supplementalGroups ?? []), ...(podSc.fsGroup !== undefined ? [podSc.fsGroup] : [])];
  // the image's user is root: its primary group (0) unless runAsGroup says otherwise
  return { uid: uid ?? 0, gid: gid ?? 0, groups: [...new Set(groups)] };
}
