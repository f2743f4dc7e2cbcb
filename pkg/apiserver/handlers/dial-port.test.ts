import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dialPort } from './dial-port.js';

describe('dialPort', () => {
  it('reads digits as the port and refuses what no port is, in Go dial\'s words', () => {
    expect(dialPort('8080')).toEqual({ port: 8080 });
    expect(dialPort('080')).toEqual({ port: 80 });
    expect(dialPort('70000')).toEqual({ error: 'dial tcp: address 70000: invalid port' });
    expect(dialPort('-1')).toEqual({ error: 'dial tcp: address -1: invalid port' });
  });

  it('looks a name up as a TCP service, as Go does, whatever its case', () => {
    expect(dialPort('http')).toEqual({ port: 80 });
    expect(dialPort('HTTPS')).toEqual({ port: 443 });
    expect(dialPort('no-such-service')).toEqual({ error: 'dial tcp: lookup tcp/no-such-service: unknown port' });
  });

  it.skipIf(!existsSync('/etc/services'))('knows the names and aliases of /etc/services', () => {
    expect(dialPort('www')).toEqual({ port: 80 }); // http's alias there
  });
});
