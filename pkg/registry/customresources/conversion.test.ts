import { describe, expect, it } from 'vitest';
import { createConverter } from './conversion.js';

const converter = (clientConfig: object) => createConverter('example.com', {
  strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig },
}, () => undefined);

const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g', uid: 'u' } };

describe('a conversion webhook\'s failure', () => {
  it('names the URL as upstream\'s rest client prints it: a service as <name>.<namespace>.svc:<port>, :443 too', async () => {
    for (const [service, url] of [
      [{ namespace: 'default', name: 'wh', path: '/convert' }, 'https://wh.default.svc:443/convert?timeout=30s'],
      [{ namespace: 'ns', name: 'wh', port: 8443, path: '/convert' }, 'https://wh.ns.svc:8443/convert?timeout=30s'],
    ] as const) {
      const c = converter({ service });
      await expect(c.convert(gadget, 'v2')).rejects.toMatchObject({
        code: 500, message: `conversion webhook for example.com/v1, Kind=Gadget failed: Post "${url}": service "wh" not found`,
      });
      c.close();
    }
  });
});
