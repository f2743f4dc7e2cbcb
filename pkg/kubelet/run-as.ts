// Who a container runs as (upstream: securitycontext.DetermineEffectiveSecurityContext, kuberuntime's
// verifyRunAsNonRoot): the container's runAsUser / runAsGroup over the pod's, the pod's supplementalGroups and fsGroup
// as its groups, else the image's user (CRI ImageStatus' uid: root when it names none); runAsNonRoot refuses a
// container that would run as root.
import type { KubeObject } from '../client/index.js';
import { ContainerConfigError } from './env.js';
import type { ContainerUser } from './runtime/types.js';

interface SecurityContext { runAsUser?: number; runAsGroup?: number; runAsNonRoot?: boolean; supplementalGroups?: number[]; fsGroup?: number }

/**
 * The user to run the container as (undefined: root, an image's of no USER), given the image's user and primary
 * group, or a ContainerConfigError in upstream's words.
 */
export function containerUser(
  pod: KubeObject, container: { name: string; securityContext?: SecurityContext }, podDesc: string, image?: { uid: number; gid: number },
): ContainerUser | undefined {
  const podSc = (pod.spec?.securityContext ?? {}) as SecurityContext;
  const sc = container.securityContext ?? {};
  const uid = sc.runAsUser ?? podSc.runAsUser;
  const gid = sc.runAsGroup ?? podSc.runAsGroup;
  if (sc.runAsNonRoot ?? podSc.runAsNonRoot) {
    if (uid === 0) throw new ContainerConfigError(`container's runAsUser breaks non-root policy (pod: "${podDesc}", container: ${container.name})`);
    if (uid === undefined && !image?.uid) throw new ContainerConfigError(`container has runAsNonRoot and image will run as root (pod: "${podDesc}", container: ${container.name})`);
  }
  if (uid === undefined && gid === undefined && !image) return undefined;
  const groups = [...(podSc.supplementalGroups ?? []), ...(podSc.fsGroup !== undefined ? [podSc.fsGroup] : [])];
  // the image's user with its primary group unless runAsGroup says otherwise; runAsUser's with group 0 (an image's
  // /etc/passwd, which would name its group, is not known)
  return { uid: uid ?? image?.uid ?? 0, gid: gid ?? (uid === undefined ? image?.gid ?? 0 : 0), groups: [...new Set(groups)] };
}
