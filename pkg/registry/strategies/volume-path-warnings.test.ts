// Upstream 1.32's warnings_test.go cases for overlapping volume paths (TestWarnings, TestCheckForOverLap).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { overlappingPathWarnings } from './volume-path-warnings.js';

const items = (...paths: string[]): KubeObject[] => paths.map((path, i) => ({ key: `k${i}`, path }));
const projected = (...sources: KubeObject[]): KubeObject[] => [{ name: 'foo', projected: { sources } }];
const field = (path: string): KubeObject => ({ fieldRef: { fieldPath: 'metadata.name' }, path });

describe('overlapping volume paths', () => {
  it('warns of a configMap, secret or downwardAPI volume writing a path twice, or a file where a directory goes', () => {
    const cm = (...paths: string[]): KubeObject[] => [{ name: 'Test', configMap: { name: 'foo', items: items(...paths) } }];
    expect(overlappingPathWarnings(cm('test', 'test'))).toEqual(['volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test"']);
    expect(overlappingPathWarnings(cm('test', 'test/app'))).toEqual(['volume "Test" (ConfigMap "foo"): overlapping paths: "test/app" with "test"']);
    expect(overlappingPathWarnings(cm('test/app', 'test'))).toEqual(['volume "Test" (ConfigMap "foo"): overlapping paths: "test" with "test/app"']);
    expect(overlappingPathWarnings([{ name: 'Test', secret: { secretName: 'foo', items: items('test', 'test') } }]))
      .toEqual(['volume "Test" (Secret "foo"): overlapping paths: "test" with "test"']);
    expect(overlappingPathWarnings([{ name: 'Test', downwardAPI: { items: [field('test'), field('test')] } }]))
      .toEqual(['volume "Test" (DownwardAPI): overlapping paths: "test" with "test"']);
    expect(overlappingPathWarnings(cm('a/b', 'a/c', 'b'))).toEqual([]);
  });

  it('warns of projected sources writing over each other, named by the later source', () => {
    const cm = { configMap: { name: 'Test', items: items('test') } };
    expect(overlappingPathWarnings(projected(cm, { serviceAccountToken: { path: 'test' } })))
      .toEqual(['volume "foo" (Projected ServiceAccountToken): overlapping paths: "test" with "test"']);
    expect(overlappingPathWarnings(projected(cm, { serviceAccountToken: { path: 'test/file' } })))
      .toEqual(['volume "foo" (Projected ServiceAccountToken): overlapping paths: "test/file" with "test"']);
    expect(overlappingPathWarnings(projected({ configMap: { name: 'Test', items: items('test/file') } }, { serviceAccountToken: { path: 'test' } })))
      .toEqual(['volume "foo" (Projected ServiceAccountToken): overlapping paths: "test/file" with "test"']);
    expect(overlappingPathWarnings(projected({ secret: { name: 'TestSecret', items: items('test') } }, { configMap: { name: 'TestConfigMap', items: items('test/test1') } })))
      .toEqual(['volume "foo" (Projected ConfigMap "TestConfigMap"): overlapping paths: "test/test1" with "test"']);
    expect(overlappingPathWarnings(projected({ downwardAPI: { items: [field('test/test2')] } }, { clusterTrustBundle: { name: 'Test', path: 'test' } })))
      .toEqual(['volume "foo" (Projected ClusterTrustBundle "Test"): overlapping paths: "test/test2" with "test"']);
    expect(overlappingPathWarnings(projected({ clusterTrustBundle: { signerName: 'example.com/signer', path: 'test' } }, { serviceAccountToken: { path: 'test' } })))
      .toEqual(['volume "foo" (Projected ServiceAccountToken): overlapping paths: "test" with "test"']);
  });

  it('checks each projected source against all the earlier ones, sorted', () => {
    expect(overlappingPathWarnings(projected(
      { clusterTrustBundle: { signerName: 'Test', path: 'test/test' } }, { downwardAPI: { items: [field('test')] } },
      { secret: { name: 'Test', items: items('test') } }, { serviceAccountToken: { path: 'test' } },
    ))).toEqual([
      'volume "foo" (Projected DownwardAPI): overlapping paths: "test/test" with "test"',
      'volume "foo" (Projected Secret "Test"): overlapping paths: "test" with "test"',
      'volume "foo" (Projected Secret "Test"): overlapping paths: "test/test" with "test"',
      'volume "foo" (Projected ServiceAccountToken): overlapping paths: "test" with "test"',
      'volume "foo" (Projected ServiceAccountToken): overlapping paths: "test/test" with "test"',
    ]);
    expect(overlappingPathWarnings(projected({ serviceAccountToken: { path: 'test/test2' } }, { downwardAPI: { items: [field('test'), field('test')] } }))).toEqual([
      'volume "foo" (Projected DownwardAPI): overlapping paths: "test" with "test"',
      'volume "foo" (Projected DownwardAPI): overlapping paths: "test/test2" with "test"',
    ]);
  });

  it('warns of an empty projection, and goes over the previous source again for one it cannot read', () => {
    expect(overlappingPathWarnings(projected({}))).toEqual(['volume "foo" (Projected) has no sources provided']);
    expect(overlappingPathWarnings(projected({ secret: { name: 's', items: items('a', 'b') } }, { configMap: { name: 'all-keys' } }))).toEqual([
      'volume "foo" (Projected Secret "s"): overlapping paths: "a" with "a"',
      'volume "foo" (Projected Secret "s"): overlapping paths: "b" with "b"',
    ]);
  });

  it('compares paths as upstream\'s checkForOverlap: trailing slashes trimmed, prefixes without a separator too', () => {
    const cm = (...paths: string[]): string[] => overlappingPathWarnings([{ name: 'v', configMap: { name: 'c', items: items(...paths) } }]);
    expect(cm('path1/path3', 'path1/path3/')).toEqual(['volume "v" (ConfigMap "c"): overlapping paths: "path1/path3" with "path1/path3"']);
    expect(cm('path1/path', 'path2/path', 'path3/path', 'path3/path3')).toEqual(['volume "v" (ConfigMap "c"): overlapping paths: "path3/path3" with "path3/path"']);
    expect(cm('path1/path', 'path101/path3')).toEqual([]);
    expect(cm('path101/path', 'path1/path3')).toEqual([]);
    expect(cm('test', 'testing')).toEqual(['volume "v" (ConfigMap "c"): overlapping paths: "testing" with "test"']);
    expect(cm('', 'a', '')).toEqual([]);
  });
});
