// Expectations from upstream's TestPrintDeployment, TestPrintReplicaSet, TestPrintDaemonSet,
// TestPrintStatefulSet, TestPrintReplicationController and TestPrintControllerRevision.
import { describe, expect, it } from 'vitest';
import {
  controllerRevisionPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './apps.js';
import { NOW, obj } from './testing.js';

const template = { spec: { containers: [{ name: 'fake-container1', image: 'fake-image1' }, { name: 'fake-container2', image: 'fake-image2' }] } };

describe('deployments', () => {
  const deployment = (selector: unknown) =>
    obj(
      'test1',
      {
        spec: { replicas: 5, template, selector },
        status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4, readyReplicas: 1 },
      },
      10,
    );

  it('prints READY UP-TO-DATE AVAILABLE and the wide template columns', () => {
    const d = deployment({ matchLabels: { foo: 'bar' } });
    expect(deploymentPrinter.cells(d, NOW)).toEqual([
      'test1',
      '1/5',
      2,
      1,
      '10s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'foo=bar',
    ]);
    expect(deploymentPrinter.columns.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Ready:0',
      'Up-to-date:0',
      'Available:0',
      'Age:0',
      'Containers:1',
      'Images:1',
      'Selector:1',
    ]);
  });

  it('prints set-based selectors sorted by key, an empty one as ""', () => {
    const selector = {
      matchLabels: { tier: 'front' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'canary', operator: 'DoesNotExist' },
        { key: 'app', operator: 'Exists' },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
      ],
    };
    expect(deploymentPrinter.cells(deployment(selector), NOW)[7]).toBe('app,!canary,env in (dev,prod),tier=front,zone notin (b)');
    expect(deploymentPrinter.cells(deployment({}), NOW)[7]).toBe('');
    expect(deploymentPrinter.cells(deployment({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] }), NOW)[7]).toBe('<invalid>');
  });
});

describe('replica sets and replication controllers', () => {
  it('prints DESIRED CURRENT READY as integers and the selector', () => {
    const rs = obj(
      'test1',
      { spec: { replicas: 5, template, selector: { matchLabels: { foo: 'bar' } } }, status: { replicas: 5, readyReplicas: 2 } },
      10,
    );
    expect(replicaSetPrinter.cells(rs, NOW)).toEqual([
      'test1',
      5,
      5,
      2,
      '10s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'foo=bar',
    ]);
    expect(replicaSetPrinter.columns.slice(1, 4).map((c) => c.type)).toEqual(['integer', 'integer', 'integer']);
  });

  it('prints <none> for an empty replica set selector', () => {
    expect(replicaSetPrinter.cells(obj('rs', { spec: { template } }), NOW)[7]).toBe('<none>');
  });

  it('prints the map selector of replication controllers and copes without a template', () => {
    const rc = obj('rc', { spec: { replicas: 2, selector: { b: '2', a: '1' } }, status: { replicas: 1 } });
    expect(replicationControllerPrinter.cells(rc, NOW)).toEqual(['rc', 2, 1, 0, '<unknown>', '', '', 'a=1,b=2']);
  });
});

describe('stateful sets', () => {
  it('prints READY as ready/desired and no selector column', () => {
    const sts = obj('test1', { spec: { replicas: 5, template }, status: { replicas: 5, readyReplicas: 2 } }, 10);
    expect(statefulSetPrinter.cells(sts, NOW)).toEqual([
      'test1',
      '2/5',
      '10s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
    ]);
    expect(statefulSetPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Ready', 'Age', 'Containers', 'Images']);
  });
});

describe('daemon sets', () => {
  it('prints the scheduling counters and the node selector', () => {
    const ds = obj(
      'test1',
      {
        spec: {
          template: { spec: { ...template.spec, nodeSelector: { disk: 'ssd' } } },
          selector: { matchLabels: { foo: 'bar' } },
        },
        status: { currentNumberScheduled: 2, desiredNumberScheduled: 3, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 0 },
      },
      10,
    );
    expect(daemonSetPrinter.cells(ds, NOW)).toEqual([
      'test1',
      3,
      2,
      1,
      2,
      0,
      'disk=ssd',
      '10s',
      'fake-container1,fake-container2',
      'fake-image1,fake-image2',
      'foo=bar',
    ]);
    expect(daemonSetPrinter.cells(obj('bare', { spec: { template } }), NOW)[6]).toBe('<none>');
  });
});

describe('controller revisions', () => {
  const owner = (apiVersion: string, kind: string, controller = true) => ({
    metadata: { ownerReferences: [{ apiVersion, kind, name: 'test', uid: 'u', controller }] },
    revision: 1,
  });

  it('prints the controlling owner as kind.group/name', () => {
    expect(controllerRevisionPrinter.cells(obj('test1', owner('apps/v1', 'DaemonSet'), 0), NOW)).toEqual([
      'test1',
      'daemonset.apps/test',
      1,
      '0s',
    ]);
    expect(controllerRevisionPrinter.cells(obj('test2', owner('v1', 'Pod')), NOW)[1]).toBe('pod/test');
  });

  it('prints <none> without a controlling owner', () => {
    expect(controllerRevisionPrinter.cells(obj('test3', owner('apps/v1', 'DaemonSet', false)), NOW)[1]).toBe('<none>');
    expect(controllerRevisionPrinter.cells(obj('test4', { revision: 2 }), NOW)[1]).toBe('<none>');
  });
});
