// The WebApp resource (crd.yaml) and, as pure functions of what the caches hold, what the operator makes of it: the
// Deployment it owns and the status it reports. Kept free of I/O so that the reconcile stays a thin loop around them.
import { setStatusCondition, type Condition } from '../../../../api/meta/v1/conditions.js';
import type { KubeObject } from '../../../../api/types.js';
import type { ResourceRef } from '../../resource.js';

export const GROUP = 'example.mini-kube.io';
export const FIELD_MANAGER = 'webapp-operator';
/** Selects a WebApp's pods; also the selector its scale subresource reports. */
export const NAME_LABEL = `${GROUP}/webapp`;
/** On the pod template: the referenced ConfigMap's resourceVersion, so that changing the ConfigMap rolls the pods. */
export const CONFIG_VERSION_ANNOTATION = `${GROUP}/config-version`;
export const READY = 'Ready';

export const WebApps: ResourceRef = { group: GROUP, version: 'v1', resource: 'webapps', namespaced: true, kind: 'WebApp' };

export interface WebAppStatus {
  replicas?: number;
  readyReplicas?: number;
  selector?: string;
  observedGeneration?: number;
  conditions?: Condition[];
}

export interface WebApp extends KubeObject {
  spec: { image: string; replicas?: number; configMap?: string };
  status?: WebAppStatus;
}

const wantedReplicas = (app: WebApp): number => app.spec.replicas ?? 1;

/** The Deployment a WebApp owns: same name and namespace, controlled by it (so deleting the WebApp collects it). */
export function desiredDeployment(app: WebApp, configVersion: string | undefined): KubeObject {
  const { name, namespace, uid } = app.metadata!;
  const labels = { [NAME_LABEL]: name! };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name, namespace, labels,
      ownerReferences: [{ apiVersion: `${GROUP}/v1`, kind: 'WebApp', name: name!, uid: uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas: wantedReplicas(app),
      selector: { matchLabels: labels },
      template: {
        metadata: { labels, ...(configVersion ? { annotations: { [CONFIG_VERSION_ANNOTATION]: configVersion } } : {}) },
        spec: { containers: [{ name: 'web', image: app.spec.image }] },
      },
    },
  };
}

/** Whether `have` already holds every field `want` sets (arrays element by element): then applying is a no-op. */
const holds = (have: unknown, want: unknown): boolean => {
  if (Array.isArray(want)) return Array.isArray(have) && have.length === want.length && want.every((w, i) => holds(have[i], w));
  if (want !== null && typeof want === 'object') {
    return have !== null && typeof have === 'object' && Object.entries(want).every(([k, v]) => holds((have as Record<string, unknown>)[k], v));
  }
  return have === want;
};

/** Whether the cached Deployment is what `desired` asks (a dropped ConfigMap must also drop its annotation). */
export const isUpToDate = (current: KubeObject | undefined, desired: KubeObject): boolean =>
  current !== undefined && holds(current, desired) &&
  current.spec?.template?.metadata?.annotations?.[CONFIG_VERSION_ANNOTATION] === desired.spec.template.metadata.annotations?.[CONFIG_VERSION_ANNOTATION];

/** Ready once the Deployment has rolled out the current spec to every wanted replica. */
function readiness(app: WebApp, deployment: KubeObject | undefined): Pick<Condition, 'status' | 'reason' | 'message'> {
  if (!deployment) return { status: 'False', reason: 'DeploymentMissing', message: 'the Deployment is being created' };
  const want = wantedReplicas(app);
  const s = deployment.status ?? {};
  const rolledOut = (s.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 0) && (s.updatedReplicas ?? 0) === want && (s.replicas ?? 0) === want;
  const ready = s.readyReplicas ?? 0;
  if (rolledOut && ready === want) return { status: 'True', reason: 'DeploymentReady', message: `${ready}/${want} replicas ready` };
  return { status: 'False', reason: 'DeploymentProgressing', message: `${ready}/${want} replicas ready` };
}

/** The status to report; the Ready condition keeps its lastTransitionTime while its status does not change. */
export function desiredStatus(app: WebApp, deployment: KubeObject | undefined, now: string): WebAppStatus {
  const generation = app.metadata?.generation;
  const r = readiness(app, deployment);
  return {
    replicas: deployment?.status?.replicas ?? 0,
    readyReplicas: deployment?.status?.readyReplicas ?? 0,
    selector: `${NAME_LABEL}=${app.metadata!.name!}`,
    observedGeneration: generation,
    conditions: setStatusCondition(app.status?.conditions?.filter((c) => c.type === READY), { type: READY, ...r, observedGeneration: generation }, now),
  };
}

/** Whether the reported status already says `want` (so no write is needed). */
export const sameStatus = (have: WebAppStatus | undefined, want: WebAppStatus): boolean => holds(have, want);
