// kubectl keeps what discovery found on disk per server address (~/.kube/cache/discovery/127.0.0.1_PORT) for hours.
// A test server on a port an earlier file's server had was then seen through that server's resources: a kind both
// served resolved to the other group ("the server could not find the requested resource"). Each test file's kubectl
// gets a cache of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'mini-kube-kubectl-cache-'));
process.env.KUBECACHEDIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
