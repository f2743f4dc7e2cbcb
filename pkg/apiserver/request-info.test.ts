import { describe, expect, it } from 'vitest';
import { requestInfo } from './request-info.js';

const ri = (method: string, url: string, query: Record<string, string> = {}) => requestInfo(method, url, query);

describe('requestInfo', () => {
  it('reads namespaced resources, names and subresources', () => {
    expect(ri('GET', '/api/v1/namespaces/ns/pods/web/status')).toMatchObject({
      isResourceRequest: true, verb: 'get', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'pods', name: 'web', subresource: 'status',
    });
    expect(ri('GET', '/apis/apps/v1/namespaces/ns/deployments')).toMatchObject({ verb: 'list', apiGroup: 'apps', resource: 'deployments', name: '' });
    expect(ri('DELETE', '/api/v1/namespaces/ns/configmaps')).toMatchObject({ verb: 'deletecollection' });
  });

  it('treats the namespaces resource and its subresources as upstream does', () => {
    expect(ri('GET', '/api/v1/namespaces/kube-system')).toMatchObject({ resource: 'namespaces', name: 'kube-system', namespace: 'kube-system', verb: 'get' });
    expect(ri('PUT', '/api/v1/namespaces/x/finalize')).toMatchObject({ resource: 'namespaces', name: 'x', subresource: 'finalize', verb: 'update' });
    expect(ri('GET', '/api/v1/namespaces')).toMatchObject({ resource: 'namespaces', verb: 'list' });
  });

  it('keeps an empty segment inside the path, as upstream\'s splitPath: an empty namespace or name, or no resource', () => {
    expect(ri('GET', '/api/v1/namespaces//pods')).toMatchObject({ namespace: '', namespaceInPath: true, resource: 'pods', verb: 'list' });
    expect(ri('GET', '/api/v1/namespaces/ns/pods')).toMatchObject({ namespaceInPath: true });
    expect(ri('GET', '/api/v1/namespaces/ns')).toMatchObject({ namespaceInPath: false, resource: 'namespaces' });
    expect(ri('GET', '/apis/apps/v1//deployments')).toMatchObject({ resource: '', name: 'deployments' });
    expect(ri('PUT', '/api/v1/namespaces/ns/pods//status')).toMatchObject({ resource: 'pods', name: '', subresource: 'status' });
    // outer slashes go, however many
    expect(ri('GET', '//api/v1/namespaces/ns/pods//')).toMatchObject({ namespace: 'ns', resource: 'pods', parts: ['pods'], verb: 'list' });
  });

  it('recognises watches by query and by the legacy /watch/ path', () => {
    expect(ri('GET', '/api/v1/pods', { watch: 'true' }).verb).toBe('watch');
    expect(ri('GET', '/api/v1/pods', { watch: 'True' }).verb).toBe('watch');
    expect(ri('GET', '/api/v1/pods', { watch: 'false' }).verb).toBe('list');
    expect(ri('GET', '/api/v1/watch/namespaces/ns/pods').verb).toBe('watch');
    expect(ri('GET', '/api/v1/watch/namespaces/ns/pods/p')).toMatchObject({ verb: 'watch', name: 'p', watchPath: true });
    // a named GET stays a get, ?watch=true or not (upstream turns only a GET of no name into a list or a watch)
    expect(ri('GET', '/api/v1/namespaces/ns/pods/p', { watch: 'true' })).toMatchObject({ verb: 'get', name: 'p' });
    expect(ri('GET', '/api/v1/pods', { watch: 'true' }).watchPath).toBe(false);
    // upstream's special verb: the path decides, whatever the method (its router then refuses all but GET)
    expect(ri('POST', '/api/v1/watch/namespaces/ns/configmaps')).toMatchObject({ verb: 'watch', resource: 'configmaps', watchPath: true });
  });

  it('leaves discovery and other paths as non-resource requests', () => {
    expect(ri('GET', '/apis/apps/v1').isResourceRequest).toBe(false);
    expect(ri('GET', '/api').isResourceRequest).toBe(false);
    expect(ri('GET', '/healthz')).toMatchObject({ isResourceRequest: false, verb: 'get' });
  });

  it('decodes percent-escapes in the path, as Go\'s server does, and refuses broken ones', () => {
    expect(ri('PATCH', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3Aaggregated-metrics-reader'))
      .toMatchObject({ resource: 'clusterroles', name: 'system:aggregated-metrics-reader', path: '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:aggregated-metrics-reader' });
    // the path too is req.URL.Path (a proxy's trailing slash may come escaped; nonResourceURLs match the decoded path)
    expect(ri('GET', '/api/v1/nodes/n/proxy/logs%2F')).toMatchObject({ path: '/api/v1/nodes/n/proxy/logs/', parts: ['nodes', 'n', 'proxy', 'logs'] });
    expect(() => ri('GET', '/api/v1/namespaces/a%zz/pods')).toThrow(/invalid URL escape/);
  });
});
