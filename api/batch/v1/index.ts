// batch/v1: Jobs and CronJobs.
import { ALL_VERBS, type GroupVersion, type ResourceType } from '../../types.js';
import { cronJobDefinitions } from './cronjob.js';
import { defaulters } from './defaults.js';
import { B, jobDefinitions } from './job.js';

const group = 'batch';
const version = 'v1';

const resource = (kind: string, plural: string, shortNames?: string[]): ResourceType => ({
  group, version, kind, plural, singular: kind.toLowerCase(), namespaced: true, verbs: ALL_VERBS,
  ...(shortNames ? { shortNames } : {}), categories: ['all'],
  subresources: [{ name: 'status', group, version, kind, verbs: ['get', 'patch', 'update'] }],
  definition: B + kind,
});

export const groupVersion: GroupVersion = {
  group,
  version,
  resources: [resource('CronJob', 'cronjobs', ['cj']), resource('Job', 'jobs')],
  definitions: { ...jobDefinitions, ...cronJobDefinitions },
  defaulters,
};
