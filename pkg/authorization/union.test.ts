import { describe, expect, it } from 'vitest';
import { buildAuthorizer } from './index.js';
import type { Attributes, Authorizer } from './interface.js';
import { union } from './union.js';

const attrs: Attributes = { user: { name: 'u', groups: [] }, verb: 'get', isResourceRequest: true, path: '/api/v1/pods', namespace: '', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '' };
const fixed = (name: string, decision: 'allow' | 'deny' | 'noopinion'): Authorizer => ({ name, authorize: () => ({ decision, reason: `${name} says ${decision}` }) });

describe('authorizer union', () => {
  it('lets the first allow or deny decide', async () => {
    expect((await union([fixed('a', 'noopinion'), fixed('b', 'deny'), fixed('c', 'allow')]).authorize(attrs)).decision).toBe('deny');
    expect((await union([fixed('a', 'noopinion'), fixed('c', 'allow')]).authorize(attrs)).decision).toBe('allow');
  });
  it('has no opinion when nobody has one, and keeps their reasons', async () => {
    const r = await union([fixed('a', 'noopinion'), fixed('b', 'noopinion')]).authorize(attrs);
    expect(r).toEqual({ decision: 'noopinion', reason: 'a says noopinion, b says noopinion' });
  });
  it('answers at once while its authorizers do, and waits for one that does not', async () => {
    const later = (name: string, decision: 'allow' | 'noopinion'): Authorizer => ({ name, authorize: () => Promise.resolve({ decision, reason: `${name} says ${decision}` }) });
    const now = union([fixed('a', 'noopinion'), fixed('b', 'allow')]).authorize(attrs);
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual({ decision: 'allow', reason: 'b says allow' });
    const waited = union([fixed('a', 'noopinion'), later('w', 'noopinion'), fixed('c', 'noopinion')]).authorize(attrs);
    expect(waited).toBeInstanceOf(Promise);
    expect(await waited).toEqual({ decision: 'noopinion', reason: 'a says noopinion, w says noopinion, c says noopinion' });
    expect(await union([later('w', 'allow'), fixed('d', 'deny')]).authorize(attrs)).toEqual({ decision: 'allow', reason: 'w says allow' });
  });
  it('refuses modes it does not know with a clear error', () => {
    expect(() => buildAuthorizer(['Bogus'])).toThrow(/Bogus: not supported/);
    expect(buildAuthorizer(['AlwaysDeny', 'AlwaysAllow']).name).toBe('AlwaysDeny,AlwaysAllow');
  });
});
