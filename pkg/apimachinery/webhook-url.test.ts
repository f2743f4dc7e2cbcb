import { describe, expect, it } from 'vitest';
import { printedUrl, webhookUrl } from './webhook-url.js';

describe('webhookUrl', () => {
  it('prints the host as configured, as Go\'s url.URL does (the WHATWG URL drops https\' :443)', () => {
    const shown = (cc: Parameters<typeof webhookUrl>[0]): string | undefined => {
      const w = webhookUrl(cc);
      return w && printedUrl(w);
    };
    expect(shown({ url: 'https://example.com:443/hook' })).toBe('https://example.com:443/hook');
    expect(shown({ url: 'https://example.com/hook' })).toBe('https://example.com/hook');
    expect(shown({ url: 'https://[::1]:8443/hook' })).toBe('https://[::1]:8443/hook');
    expect(shown({ service: { namespace: 'default', name: 'wh' } })).toBe('https://wh.default.svc:443/');
    expect(shown({ service: { namespace: 'ns', name: 'wh', port: 8443, path: '/convert' } })).toBe('https://wh.ns.svc:8443/convert');
    expect(shown({})).toBeUndefined();
  });

  it('keeps the parsed URL for the call, its search parameters printed', () => {
    const w = webhookUrl({ service: { namespace: 'default', name: 'wh', path: '/convert' } })!;
    w.u.searchParams.set('timeout', '30s');
    expect([w.u.hostname, printedUrl(w)]).toEqual(['wh.default.svc', 'https://wh.default.svc:443/convert?timeout=30s']);
  });
});
