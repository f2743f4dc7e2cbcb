import { describe, expect, it } from 'vitest';
import { validateClientConfig } from './admission-webhooks.js';

const errors = (cc: Record<string, unknown>) => validateClientConfig(cc, 'c').map((e) => [e.field, e.reason, e.message]);

describe('webhook clientConfig validation (upstream ValidateWebhookURL, ValidateWebhookService)', () => {
  it('names the offending part of a URL as the value', () => {
    const [scheme, user, fragment, query] = [
      errors({ url: 'http://h.example.com/x' }), errors({ url: 'https://user@h.example.com/x' }),
      errors({ url: 'https://h.example.com/x#frag' }), errors({ url: 'https://h.example.com/x?name=a' }),
    ].map((e) => e[0]![2]);
    expect(scheme).toBe('Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]');
    expect(user).toBe('Invalid value: "user": user information is not permitted in the URL');
    expect(fragment).toBe('Invalid value: "frag": fragments are not permitted in the URL');
    expect(query).toBe('Invalid value: "name=a": query parameters are not permitted in the URL');
    expect(errors({ url: 'h.example.com/x' }).map((e) => e[2])).toEqual([
      'Invalid value: "": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'Invalid value: "": host must be provided; desired format: https://host[/path]',
    ]);
    expect(errors({ url: 'https://h.example.com:8443/x' })).toEqual([]);
  });

  it('checks each segment of a service path', () => {
    const svc = (path: string) => errors({ service: { namespace: 'ns', name: 'wh', path } }).map((e) => e[2]);
    expect(svc('/ok/Bad')).toEqual([expect.stringMatching(/^Invalid value: "\/ok\/Bad": segment\[1\]: a lowercase RFC 1123 subdomain must consist of/)]);
    expect(svc('/a//b/')).toEqual(['Invalid value: "/a//b/": segment[1] may not be empty']);
    expect(svc('//')).toEqual(['Invalid value: "//": segment[0] may not be empty']);
    expect(svc('/a/b/')).toEqual([]);
  });
});
