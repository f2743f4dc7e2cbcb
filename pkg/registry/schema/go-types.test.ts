import { describe, expect, it } from 'vitest';
import { allDefinitions } from '../../../api/index.js';
import { goFieldAt, unmarshalTypeError } from './go-types.js';

const at = (root: string, path: string) => goFieldAt(root, path.split('/'), allDefinitions);

describe('Go decoder wording of a type error', () => {
  it('names the struct holding the field, the JSON path without indexes or keys, and the Go type', () => {
    expect(unmarshalTypeError('x', at('io.k8s.api.apps.v1.Deployment', 'spec/replicas'))).toBe('json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    expect(unmarshalTypeError(1, at('io.k8s.api.core.v1.Pod', 'spec/containers/0/args/1'))).toBe('json: cannot unmarshal number into Go struct field Container.spec.containers.args of type string');
    expect(unmarshalTypeError(1.5, at('io.k8s.api.core.v1.Pod', 'spec/containers/0/ports/0/containerPort'))).toBe('json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
    expect(unmarshalTypeError([], at('io.k8s.api.core.v1.Pod', 'metadata/labels'))).toBe('json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string');
    expect(unmarshalTypeError(true, at('io.k8s.api.core.v1.Pod', 'metadata/labels/app'))).toBe('json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string');
    expect(unmarshalTypeError('x', at('io.k8s.api.core.v1.Pod', 'spec'))).toBe('json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec');
    expect(unmarshalTypeError(1, at('io.k8s.api.core.v1.Secret', 'data/k'))).toBe('json: cannot unmarshal number into Go struct field Secret.data of type []uint8');
    expect(unmarshalTypeError([], at('io.k8s.api.core.v1.Pod', ''))).toBe('json: cannot unmarshal array into Go value of type v1.Pod');
  });
});
