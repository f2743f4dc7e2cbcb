// Sandbox and container IDs: 64 hex characters, as containerd's. The random bytes come from a pool filled
// 4 KiB at a time: a fake kubelet for 1,000 nodes makes two IDs per pod, and a call into the CSPRNG each
// cost more than the rest of the ID.
import { randomFillSync } from 'node:crypto';

const pool = Buffer.alloc(4096);
let used = pool.length;

export const newId = (): string => {
  if (used + 32 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 32;
  return pool.toString('hex', used - 32, used);
};
