// The smaller printers: core config objects, storage, networking, RBAC, cluster plumbing, and the
// default table; expectations from upstream's printers_test.go and rest/table.go.
import { describe, expect, it } from 'vitest';
import { configMapPrinter, namespacePrinter, resourceQuotaPrinter, secretPrinter, serviceAccountPrinter } from './core.js';
import {
  csiDriverPrinter,
  csiNodePrinter,
  csiStorageCapacityPrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
} from './storage.js';
import { ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from './networking.js';
import { roleBindingPrinter } from './rbac.js';
import {
  leasePrinter, podDisruptionBudgetPrinter, priorityClassPrinter, validatingAdmissionPolicyBindingPrinter, validatingAdmissionPolicyPrinter, webhookConfigurationPrinter,
} from './cluster.js';
import { printerFor } from './index.js';
import { NOW, ago, obj } from './testing.js';

describe('CSI storage capacities', () => {
  it('print the class and the capacity, <unset> when none is reported, and no age', () => {
    expect(csiStorageCapacityPrinter.columns.map((c) => c.name)).toEqual(['Name', 'StorageClassName', 'Capacity']);
    expect(csiStorageCapacityPrinter.cells(obj('cap', { storageClassName: 'fast', capacity: '10Gi' }), NOW)).toEqual(['cap', 'fast', '10Gi']);
    expect(csiStorageCapacityPrinter.cells(obj('none', { storageClassName: 'fast' }), NOW)).toEqual(['none', 'fast', '<unset>']);
    expect(printerFor('storage.k8s.io', 'csistoragecapacities')).toBe(csiStorageCapacityPrinter);
  });
});

describe('core config objects', () => {
  it('namespaces print their phase', () => {
    expect(namespacePrinter.cells(obj('ns', { status: { phase: 'Active' } }, 60), NOW)).toEqual(['ns', 'Active', '60s']);
  });

  it('config maps count data and binaryData keys; secrets print type and data keys', () => {
    expect(configMapPrinter.cells(obj('cm', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), NOW)).toEqual([
      'cm',
      3,
      '<unknown>',
    ]);
    expect(secretPrinter.cells(obj('s', { type: 'Opaque', data: { k: 'dg==' } }), NOW)).toEqual(['s', 'Opaque', 1, '<unknown>']);
    expect(serviceAccountPrinter.cells(obj('default', { secrets: [{ name: 'x' }] }), NOW)).toEqual(['default', 1, '<unknown>']);
  });

  it('resource quotas split requests and limits, sorted by resource, after the age as in 1.32', () => {
    const quota = obj('q', {
      status: {
        hard: { 'limits.memory': '2Gi', pods: '10', 'requests.cpu': '1', 'limits.cpu': '2', 'count/secrets': '5' },
        used: { pods: '3', 'requests.cpu': '500m', 'limits.cpu': '1' },
      },
    });
    expect(resourceQuotaPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Age', 'Request', 'Limit']);
    expect(resourceQuotaPrinter.cells(quota, NOW)).toEqual([
      'q',
      '<unknown>',
      'count/secrets: 0/5, pods: 3/10, requests.cpu: 500m/1',
      'limits.cpu: 1/2, limits.memory: 0/2Gi',
    ]);
  });
});

describe('storage', () => {
  it('persistent volumes', () => {
    const pv = obj('pv1', {
      metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'beta' } },
      spec: {
        capacity: { storage: '4Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'default', name: 'claim1' },
        storageClassName: 'standard',
        volumeMode: 'Filesystem',
      },
      status: { phase: 'Bound' },
    });
    expect(persistentVolumePrinter.cells(pv, NOW)).toEqual([
      'pv1',
      '4Gi',
      'RWO,RWX',
      'Retain',
      'Bound',
      'default/claim1',
      'beta',
      '<unset>',
      '',
      '<unknown>',
      'Filesystem',
    ]);
    const deleting = obj('pv2', { metadata: { deletionTimestamp: ago(1) }, spec: {}, status: { phase: 'Released' } });
    expect(persistentVolumePrinter.cells(deleting, NOW).slice(1, 11)).toEqual([
      '0',
      '',
      '',
      'Terminating',
      '',
      '',
      '<unset>',
      '',
      '<unknown>',
      '<unset>',
    ]);
  });

  it('persistent volume claims show capacity and modes only once bound', () => {
    const pending = obj('c1', {
      spec: { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } },
      status: { phase: 'Pending' },
    });
    expect(persistentVolumeClaimPrinter.cells(pending, NOW)).toEqual(['c1', 'Pending', '', '', '', 'fast', '<unset>', '<unknown>', '<unset>']);
    const bound = obj('c2', {
      spec: { volumeName: 'pv1', volumeMode: 'Block', volumeAttributesClassName: 'gold' },
      status: { phase: 'Bound', capacity: { storage: '4Gi' }, accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] },
    });
    expect(persistentVolumeClaimPrinter.cells(bound, NOW)).toEqual(['c2', 'Bound', 'pv1', '4Gi', 'ROX,RWOP', '', 'gold', '<unknown>', 'Block']);
  });

  it('storage classes mark the default and fill defaults', () => {
    const sc = obj('standard', {
      metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'rancher.io/local-path',
    });
    expect(storageClassPrinter.cells(sc, NOW)).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'Immediate', false, '<unknown>']);
  });

  it('CSI drivers, nodes and volume attachments', () => {
    expect(csiDriverPrinter.cells(obj('d', { spec: {} }), NOW)).toEqual(['d', true, false, false, '<unset>', false, '<none>', '<unknown>']);
    const full = obj('d2', {
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        storageCapacity: true,
        tokenRequests: [{ audience: 'a' }, { audience: 'b' }],
        requiresRepublish: true,
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
      },
    });
    expect(csiDriverPrinter.cells(full, NOW).slice(1, 7)).toEqual([false, true, true, 'a,b', true, 'Persistent,Ephemeral']);
    expect(csiNodePrinter.cells(obj('n1', { spec: { drivers: [{}, {}] } }), NOW)).toEqual(['n1', 2, '<unknown>']);
    const va = obj('va', { spec: { attacher: 'csi.example', source: { persistentVolumeName: 'pv1' }, nodeName: 'n1' }, status: { attached: true } });
    expect(volumeAttachmentPrinter.cells(va, NOW)).toEqual(['va', 'csi.example', 'pv1', 'n1', true, '<unknown>']);
  });
});

describe('networking', () => {
  it('ingresses print class, hosts, address and ports', () => {
    const ing = obj('ing', {
      spec: { ingressClassName: 'nginx', rules: [{ host: 'a.example' }, {}, { host: 'b.example' }], tls: [{}] },
      status: { loadBalancer: { ingress: [{ ip: '2.3.4.5' }, { hostname: 'lb.example' }] } },
    });
    expect(ingressPrinter.cells(ing, NOW)).toEqual(['ing', 'nginx', 'a.example,b.example', '2.3.4.5,lb.example', '80, 443', '<unknown>']);
    expect(ingressPrinter.cells(obj('bare', { spec: {} }), NOW).slice(1, 5)).toEqual(['<none>', '*', '', '80']);
  });

  it('ingress hosts stop at three and count the remaining rules', () => {
    const rules = ['a', 'b', 'c', 'd', 'e'].map((h) => ({ host: `${h}.example` }));
    expect(ingressPrinter.cells(obj('ing', { spec: { rules } }), NOW)[2]).toBe('a.example,b.example,c.example + 2 more...');
  });

  it('ingress classes print controller and parameters', () => {
    const ic = obj('nginx', {
      spec: { controller: 'k8s.io/ingress-nginx', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } },
    });
    expect(ingressClassPrinter.cells(ic, NOW)).toEqual(['nginx', 'k8s.io/ingress-nginx', 'IngressParameters.k8s.example.com/external-lb', '<unknown>']);
    expect(ingressClassPrinter.cells(obj('x', { spec: { controller: 'c' } }), NOW)[2]).toBe('<none>');
  });

  it('network policies print their pod selector', () => {
    expect(networkPolicyPrinter.cells(obj('np', { spec: { podSelector: { matchLabels: { app: 'db' } } } }), NOW)[1]).toBe('app=db');
    expect(networkPolicyPrinter.cells(obj('np', { spec: { podSelector: {} } }), NOW)[1]).toBe('<none>');
  });
});

describe('RBAC bindings', () => {
  it('print the role and, wide, the subjects by kind', () => {
    const rb = obj('binding1', {
      roleRef: { kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [
        { kind: 'User', name: 'system:kube-controller-manager' },
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'system:masters' },
        { kind: 'ServiceAccount', namespace: 'kube-system', name: 'default' },
      ],
    });
    expect(roleBindingPrinter.cells(rb, NOW)).toEqual([
      'binding1',
      'Role/extension-apiserver-authentication-reader',
      '<unknown>',
      'system:kube-controller-manager, alice',
      'system:masters',
      'kube-system/default',
    ]);
  });
});

describe('cluster plumbing', () => {
  it('leases, priority classes, disruption budgets, webhook configurations', () => {
    expect(leasePrinter.cells(obj('l', { spec: { holderIdentity: 'node-1' } }), NOW)).toEqual(['l', 'node-1', '<unknown>']);
    expect(priorityClassPrinter.cells(obj('pc', { value: 1000, globalDefault: true, preemptionPolicy: 'Never' }), NOW)).toEqual([
      'pc',
      1000,
      true,
      '<unknown>',
      'Never',
    ]);
    expect(podDisruptionBudgetPrinter.cells(obj('pdb', { spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 2 } }), NOW)).toEqual([
      'pdb',
      '50%',
      'N/A',
      2,
      '<unknown>',
    ]);
    expect(podDisruptionBudgetPrinter.cells(obj('pdb', { spec: { maxUnavailable: 1 } }), NOW).slice(1, 4)).toEqual(['N/A', '1', 0]);
    expect(webhookConfigurationPrinter.cells(obj('w', { webhooks: [{}, {}] }), NOW)).toEqual(['w', 2, '<unknown>']);
    expect(validatingAdmissionPolicyPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Validations', 'ParamKind', 'Age']);
    expect(validatingAdmissionPolicyPrinter.cells(obj('p', { spec: { validations: [{}], paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } }), NOW)).toEqual(['p', 1, 'v1/ConfigMap', '<unknown>']);
    expect(validatingAdmissionPolicyPrinter.cells(obj('p', { spec: {} }), NOW)).toEqual(['p', 0, '<unset>', '<unknown>']);
    const binding = (paramRef?: unknown) => validatingAdmissionPolicyBindingPrinter.cells(obj('b', { spec: { policyName: 'p', paramRef } }), NOW).slice(1, 3);
    expect(validatingAdmissionPolicyBindingPrinter.columns.map((c) => c.name)).toEqual(['Name', 'PolicyName', 'ParamRef', 'Age']);
    expect([binding(), binding({ name: 'x', namespace: 'ns' }), binding({ name: 'x' })]).toEqual([['p', '<unset>'], ['p', 'ns/x'], ['p', '*/x']]);
    expect(binding({ selector: { matchLabels: { a: 'b' } } })).toEqual(['p', '&LabelSelector{MatchLabels:map[string]string{a: b,},MatchExpressions:[]LabelSelectorRequirement{},}']);
  });
});

describe('printerFor and the default table', () => {
  it('finds printers by group and plural', () => {
    expect(printerFor('', 'pods').columns[1]?.name).toBe('Ready');
    expect(printerFor('apps', 'deployments').columns[1]?.name).toBe('Ready');
    expect(printerFor('rbac.authorization.k8s.io', 'clusterrolebindings').columns[1]?.name).toBe('Role');
    expect(printerFor('events.k8s.io', 'events').columns[0]?.name).toBe('Last Seen');
  });

  it('falls back to NAME / CREATED AT for everything else', () => {
    for (const [group, plural] of [
      ['rbac.authorization.k8s.io', 'roles'],
      ['rbac.authorization.k8s.io', 'clusterroles'],
      ['', 'limitranges'],
      ['example.com', 'widgets'],
    ] as const) {
      const printer = printerFor(group, plural);
      expect(printer.columns.map((c) => [c.name, c.type, c.format])).toEqual([
        ['Name', 'string', 'name'],
        ['Created At', 'date', ''],
      ]);
    }
    const role = obj('reader', { metadata: { creationTimestamp: '2024-05-01T10:20:30.123456Z' } });
    expect(printerFor('rbac.authorization.k8s.io', 'roles').cells(role, NOW)).toEqual(['reader', '2024-05-01T10:20:30Z']);
    expect(printerFor('', 'limitranges').cells(obj('lr'), NOW)).toEqual(['lr', '0001-01-01T00:00:00Z']);
  });
});
