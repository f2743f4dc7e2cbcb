import { describe, expect, it } from 'vitest';
import { CONFIG_VERSION_ANNOTATION, desiredDeployment, desiredStatus, isUpToDate, sameStatus, type WebApp } from './webapp.js';

const app: WebApp = {
  apiVersion: 'example.mini-kube.io/v1', kind: 'WebApp',
  metadata: { name: 'web', namespace: 'ns', uid: 'u1', generation: 2 },
  spec: { image: 'nginx:1.25', replicas: 2, configMap: 'cfg' },
};

describe('WebApp', () => {
  it('owns a Deployment of its image and replicas, annotated with the config version', () => {
    const d = desiredDeployment(app, '17');
    expect(d.metadata!.ownerReferences).toEqual([{ apiVersion: 'example.mini-kube.io/v1', kind: 'WebApp', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
    expect(d.spec).toMatchObject({ replicas: 2, template: { metadata: { annotations: { [CONFIG_VERSION_ANNOTATION]: '17' } }, spec: { containers: [{ image: 'nginx:1.25' }] } } });
  });

  it('is up to date when the live Deployment holds every desired field, and no stale config annotation', () => {
    const live = { ...structuredClone(desiredDeployment(app, '17')), status: { replicas: 2 }, metadata: { ...desiredDeployment(app, '17').metadata, resourceVersion: '9' } };
    expect(isUpToDate(live, desiredDeployment(app, '17'))).toBe(true);
    expect(isUpToDate(live, desiredDeployment(app, '18'))).toBe(false);
    expect(isUpToDate(live, desiredDeployment({ ...app, spec: { image: 'nginx:1.25', replicas: 2 } }, undefined))).toBe(false);
    expect(isUpToDate(live, desiredDeployment({ ...app, spec: { ...app.spec, replicas: 3 } }, '17'))).toBe(false);
    expect(isUpToDate(undefined, desiredDeployment(app, '17'))).toBe(false);
  });

  it('reports Ready once the current generation is rolled out, keeping the transition time while unchanged', () => {
    const progressing = desiredStatus(app, { metadata: { generation: 3 }, status: { observedGeneration: 2, replicas: 2, updatedReplicas: 2, readyReplicas: 2 } }, 't1');
    expect(progressing.conditions![0]).toMatchObject({ status: 'False', reason: 'DeploymentProgressing', lastTransitionTime: 't1' });
    const ready = desiredStatus({ ...app, status: progressing }, { metadata: { generation: 3 }, status: { observedGeneration: 3, replicas: 2, updatedReplicas: 2, readyReplicas: 2 } }, 't2');
    expect(ready).toMatchObject({ replicas: 2, readyReplicas: 2, observedGeneration: 2, selector: 'example.mini-kube.io/webapp=web' });
    expect(ready.conditions![0]).toMatchObject({ status: 'True', reason: 'DeploymentReady', message: '2/2 replicas ready', lastTransitionTime: 't2' });
    const again = desiredStatus({ ...app, status: ready }, { metadata: { generation: 3 }, status: { observedGeneration: 3, replicas: 2, updatedReplicas: 2, readyReplicas: 2 } }, 't3');
    expect(sameStatus(ready, again)).toBe(true);
    expect(desiredStatus(app, undefined, 't').conditions![0]!.reason).toBe('DeploymentMissing');
  });
});
