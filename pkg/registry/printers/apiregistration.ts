// APIServices as upstream's kube-aggregator prints them: where each group-version is served and whether it is available.
import { column, simplePrinter } from './types.js';

export const apiServicePrinter = simplePrinter(
  [
    column('Service', 'The reference to the service that hosts this API endpoint.'),
    column('Available', 'Whether this service is available.'),
  ],
  (a) => {
    const svc = a.spec?.service as { namespace?: string; name?: string } | undefined;
    const cond = ((a.status?.conditions ?? []) as { type: string; status: string; reason?: string }[]).find((c) => c.type === 'Available');
    const available = !cond ? 'Unknown' : cond.status !== 'True' && cond.reason ? `${cond.status} (${cond.reason})` : cond.status;
    return [svc ? `${svc.namespace ?? ''}/${svc.name ?? ''}` : 'Local', available];
  },
);
