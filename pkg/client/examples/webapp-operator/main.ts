// Runs the WebApp operator: `node dist/pkg/client/examples/webapp-operator/main.js [--kubeconfig FILE]
// [--lease-namespace NS]` after `kubectl apply -f pkg/client/examples/webapp-operator/crd.yaml`. SIGINT/SIGTERM
// release the lease and exit.
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { Client } from '../../client.js';
import { loadKubeconfig } from '../../kubeconfig.js';
import { runWebAppOperator } from './operator.js';

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' }, 'lease-namespace': { type: 'string', default: 'default' } } });
const logger = pino({ name: 'webapp-operator' });
const client = new Client({ ...(await loadKubeconfig(values.kubeconfig)), qps: 20, burst: 40, userAgent: 'webapp-operator' });
const stop = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
await runWebAppOperator(client, stop.signal, {
  identity: `${hostname()}-${process.pid}`, leaseNamespace: values['lease-namespace'], logger,
  onNewLeader: (leader) => logger.info({ leader }, 'leader'),
});
await client.close();
