import { describe, expect, it } from 'vitest';
import { allDefinitions } from '../../../api/index.js';
import { ref, refTo } from '../../../api/schema.js';
import { SchemaIndex } from './index.js';
import { missingRequired } from './required.js';

const index = new SchemaIndex(allDefinitions);
const POD = ref('io.k8s.api.core.v1.Pod');

describe('missingRequired', () => {
  it('reports required fields missing anywhere but status, and skips on an update what the stored object shares', () => {
    const spec = { containers: [{ image: 'busybox' }] }; // a container without its required name
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec };
    expect(missingRequired(index, pod, POD)).toEqual(['spec.containers[0].name']);
    // an update sharing the stored spec (a status or label change) does not walk it again
    const stored = { ...pod, status: { phase: 'Pending' } };
    expect(missingRequired(index, { ...pod, metadata: { name: 'p', labels: { a: 'b' } } }, POD, stored)).toEqual([]);
    // a spec the update brings is walked whole
    expect(missingRequired(index, { ...pod, spec: { containers: [{ image: 'nginx' }] } }, POD, stored)).toEqual(['spec.containers[0].name']);
  });

  it('takes an absent list for an empty one, as Go reads it, and requires nothing of an update that the stored object lacks', () => {
    const slice = ref('io.k8s.api.discovery.v1.EndpointSlice');
    expect(missingRequired(index, { metadata: { name: 's' }, addressType: 'IPv4' }, slice)).toEqual([]);
    expect(missingRequired(index, { metadata: { name: 's' } }, slice)).toEqual(['addressType']);
    const event = ref('io.k8s.api.events.v1.Event');
    expect(missingRequired(index, { metadata: { name: 'e' } }, event)).toEqual(['eventTime']);
    expect(missingRequired(index, { metadata: { name: 'e', labels: { a: 'b' } } }, event, { metadata: { name: 'e' } })).toEqual([]);
  });

  it('requires nothing upstream accepts at its zero: an iSCSI lun, a ScaleIO secretRef, a sysctl\'s or header\'s value', () => {
    const volumes = [
      { name: 'i', iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage' } },
      { name: 's', scaleIO: { gateway: 'https://gw', system: 'sys', volumeName: 'v' } },
      { name: 'n', nfs: { path: '/x' } },
    ];
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes } };
    expect(missingRequired(index, pod, POD)).toEqual(['spec.volumes[2].nfs.server']);
    const pv = { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: { iscsi: volumes[0]!.iscsi } };
    expect(missingRequired(index, pv, ref('io.k8s.api.core.v1.PersistentVolume'))).toEqual([]);
    // a sysctl's value and an HTTP header's are never checked; a header without a name is probes.ts's to refuse
    const probe = { httpGet: { port: 80, httpHeaders: [{ name: 'X-Empty', value: '' }, { value: 'v' }] } };
    const checked = { ...pod, spec: { securityContext: { sysctls: [{ name: 'net.core.somaxconn' }] }, containers: [{ name: 'c', image: 'busybox', livenessProbe: probe }] } };
    expect(missingRequired(index, checked, POD)).toEqual([]);
    // a quota scope selector's requirement is refused by its own rules, at the list's path
    const quota = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { scopeSelector: { matchExpressions: [{}] } } };
    expect(missingRequired(index, quota, ref('io.k8s.api.core.v1.ResourceQuota'))).toEqual([]);
  });
});

describe('missingRequired of kinds validated whole', () => {
  it('leaves a CustomResourceDefinition to its own validation (its hoisted paths, Go\'s false for an absent served)', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'as.x.example.com' },
      spec: { group: 'x.example.com', scope: 'Cluster', names: { plural: 'as', kind: 'A' }, versions: [{ name: 'v1', storage: true, additionalPrinterColumns: [{ type: 'string', jsonPath: '.a' }] }] },
    };
    expect(missingRequired(index, crd, refTo('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition'))).toEqual([]);
  });
});
