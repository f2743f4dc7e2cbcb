// Jobs: unless spec.manualSelector, the server picks the selector from the job's uid and labels
// the pod template to match (upstream: registry/batch/job/strategy.go generateSelector).
import { invalidValue } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';

const UID = 'batch.kubernetes.io/controller-uid';
const NAME = 'batch.kubernetes.io/job-name';

export const jobStrategy: Strategy = {
  prepareForCreate(job) {
    const spec = (job.spec ??= {});
    if (spec.manualSelector === true) return;
    const uid = job.metadata!.uid!;
    const name = job.metadata!.name!;
    const template = (spec.template ??= {});
    const meta = (template.metadata ??= {});
    // Both the current labels and the legacy ones, as upstream still writes both.
    meta.labels = { ...meta.labels, [UID]: uid, [NAME]: name, 'controller-uid': uid, 'job-name': name };
    spec.selector ??= { matchLabels: { [UID]: uid } };
  },
  validateUpdate(job, old) {
    const same = JSON.stringify(job.spec?.selector ?? null) === JSON.stringify(old.spec?.selector ?? null);
    return same ? [] : [invalidValue('spec.selector', job.spec?.selector ?? null, 'field is immutable')];
  },
};
