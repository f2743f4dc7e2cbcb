import { describe, expect, it } from 'vitest';
import { definitions as meta } from '../../meta/v1/index.js';
import { danglingRefs } from '../../meta/v1/refs.js';
import { groupVersion } from './index.js';

describe('discovery/v1', () => {
  it('references only known definitions (core aside)', () => {
    const outside = danglingRefs(groupVersion.definitions, { ...meta, ...groupVersion.definitions })
      .filter((r) => !r.includes('-> io.k8s.api.core.v1.'));
    expect(outside).toEqual([]);
  });

  it('defaults an endpoint port to an unnamed TCP port', () => {
    const port: Record<string, any> = { port: 80 };
    groupVersion.defaulters!['io.k8s.api.discovery.v1.EndpointPort'](port);
    expect(port).toEqual({ port: 80, name: '', protocol: 'TCP' });
  });
});
