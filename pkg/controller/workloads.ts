// The workload controllers by upstream's --controllers names. The controller-manager imports this record.
import type { ControllerInit } from './shared/types.js';

export const workloadControllers: Record<string, ControllerInit> = {};
