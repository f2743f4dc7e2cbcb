// The zero objects a create is compared with, against the real definitions: what scope.Creater.New(kind) holds
// once its JSON tags have spoken (as a watch bookmark writes it, api/go-zero-objects.ts).
import { describe, expect, it } from 'vitest';
import { allDefinitions } from '../../../api/index.js';
import type { SchemaLookup } from '../schema-lookup.js';
import { NO_FIELDS, zeroObjectOf, type ZeroField } from './zero-object.js';

const lookup: SchemaLookup = (name) => allDefinitions[name];

/** The zero object as JSON again. */
const json = (z: ZeroField): unknown => ('fields' in z ? Object.fromEntries([...z.fields].map(([k, v]) => [k, json(v)])) : z.value);

describe('zeroObjectOf', () => {
  it('holds a Deployment\'s value structs, its null times, and its required pointers and lists as null', () => {
    expect(json(zeroObjectOf('io.k8s.api.apps.v1.Deployment', lookup))).toEqual({
      metadata: { creationTimestamp: null },
      spec: { selector: null, template: { metadata: { creationTimestamp: null }, spec: { containers: null } }, strategy: {} },
      status: {},
    });
  });

  it('holds the scalars Go writes at their zero', () => {
    const z = json(zeroObjectOf('io.k8s.api.core.v1.Event', lookup)) as Record<string, unknown>;
    expect(z).toMatchObject({ involvedObject: {}, source: {}, firstTimestamp: null, reportingComponent: '', reportingInstance: '' });
  });

  it('holds the pointers, lists and maps Go writes as null, required or not: a Role\'s rules, a ControllerRevision\'s data', () => {
    expect(json(zeroObjectOf('io.k8s.api.rbac.v1.Role', lookup))).toEqual({ metadata: { creationTimestamp: null }, rules: null });
    expect(json(zeroObjectOf('io.k8s.api.apps.v1.ControllerRevision', lookup))).toEqual({
      metadata: { creationTimestamp: null }, data: null, revision: 0,
    });
  });

  it('holds kube-aggregator\'s APIService from its Go types', () => {
    expect(json(zeroObjectOf('io.k8s.kube-aggregator.pkg.apis.apiregistration.v1.APIService', lookup))).toEqual({
      metadata: { creationTimestamp: null }, spec: { groupPriorityMinimum: 0, versionPriority: 0 }, status: {},
    });
  });

  it('is empty for a custom resource (an Unstructured with apiVersion and kind)', () => {
    expect(zeroObjectOf('com.example.stable.v1.CronTab', lookup)).toBe(NO_FIELDS);
  });
});
