// Namespaces, config maps, secrets, service accounts and resource quotas.
import { age } from './duration.js';
import { ageColumn, column, nameColumn, simplePrinter, type Printer } from './types.js';

const count = (map: unknown): number => Object.keys(map ?? {}).length;

export const namespacePrinter = simplePrinter([column('Status', 'The phase of the namespace: Active or Terminating.')], (ns) => [
  ns.status?.phase ?? '',
]);

export const configMapPrinter = simplePrinter(
  [column('Data', 'How many keys the config map holds (data and binaryData).')],
  (cm) => [count(cm.data) + count(cm.binaryData)],
);

export const secretPrinter = simplePrinter(
  [column('Type', 'The type of the secret.'), column('Data', 'How many keys the secret holds.')],
  (secret) => [secret.type ?? '', count(secret.data)],
);

export const serviceAccountPrinter = simplePrinter(
  [column('Secrets', 'How many secrets the service account lists.')],
  (sa) => [(sa.secrets ?? []).length],
);

/**
 * "resource: used/hard" pairs sorted by resource name; "limits.*" resources go to the Limit column,
 * everything else to Request.
 */
export function quotaColumns(status: { hard?: Record<string, string>; used?: Record<string, string> } | undefined) {
  const requests: string[] = [];
  const limits: string[] = [];
  for (const name of Object.keys(status?.hard ?? {}).sort()) {
    const pieces = name.split('.');
    const target = pieces.length > 1 && pieces[0] === 'limits' ? limits : requests;
    target.push(`${name}: ${status?.used?.[name] ?? '0'}/${status!.hard![name]}`);
  }
  return [requests.join(', '), limits.join(', ')];
}

/** 1.32's columns: Age second (upstream moved it last in 1.33). */
export const resourceQuotaPrinter: Printer = {
  columns: [
    nameColumn,
    ageColumn,
    column('Request', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
  ],
  cells: (quota, now) => [quota.metadata?.name ?? '', age(quota, now), ...quotaColumns(quota.status)],
};
