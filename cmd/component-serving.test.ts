import { describe, expect, it } from 'vitest';
import { controllerManagerFlags } from './controller-manager.js';
import { schedulerFlags } from './scheduler.js';

describe('--secure-port help', () => {
  it('names what each component serves: the controller-manager has /healthz alone of the health endpoints, as upstream\'s', () => {
    expect(controllerManagerFlags['secure-port'].help).toContain('/healthz, /metrics, /configz');
    expect(controllerManagerFlags['secure-port'].help).not.toMatch(/livez|readyz/);
    expect(schedulerFlags['secure-port'].help).toContain('/healthz, /livez, /readyz, /metrics, /configz');
  });
});
