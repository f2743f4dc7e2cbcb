// API Priority and Fairness objects as upstream's printers show them (pkg/printers/internalversion:
// printFlowSchema, printPriorityLevelConfiguration).
import { age } from './duration.js';
import { ageColumn, column, nameColumn, type Printer } from './types.js';

export const flowSchemaPrinter: Printer = {
  columns: [
    nameColumn,
    column('PriorityLevel', 'The priority level matched requests go to.'),
    column('MatchingPrecedence', 'Lower values are matched first.', 'integer'),
    column('DistinguisherMethod', 'How matched requests are told apart into flows.'),
    ageColumn,
    column('MissingPL', 'Whether the priority level does not exist (the Dangling condition).'),
  ],
  cells: (fs, now) => [
    fs.metadata?.name ?? '',
    fs.spec?.priorityLevelConfiguration?.name ?? '',
    fs.spec?.matchingPrecedence ?? 0,
    fs.spec?.distinguisherMethod?.type ?? '<none>',
    age(fs, now),
    (fs.status?.conditions as { type?: string; status?: string }[] | undefined)?.find((c) => c.type === 'Dangling')?.status ?? '?',
  ],
  // upstream's printFlowSchemaList: in the order requests are matched, by precedence and then name
  order: (items) => [...items].sort((a, b) => (a.spec?.matchingPrecedence ?? 0) - (b.spec?.matchingPrecedence ?? 0)
    || (a.metadata!.name! < b.metadata!.name! ? -1 : a.metadata!.name! > b.metadata!.name! ? 1 : 0)),
};

export const priorityLevelPrinter: Printer = {
  columns: [
    nameColumn,
    column('Type', 'Exempt or Limited.'),
    column('NominalConcurrencyShares', 'The level\'s share of the server\'s concurrency limit.'),
    column('Queues', 'Number of queues.'),
    column('HandSize', 'Queues dealt to a flow.'),
    column('QueueLengthLimit', 'Requests waiting in one queue at most.'),
    ageColumn,
  ],
  cells: (pl, now) => {
    const limited = pl.spec?.type === 'Limited' ? pl.spec.limited : undefined;
    const queuing = limited?.limitResponse?.queuing;
    const cell = (v: unknown): string => (v === undefined ? '<none>' : String(v));
    return [
      pl.metadata?.name ?? '', pl.spec?.type ?? '', cell(limited?.nominalConcurrencyShares ?? (limited ? 0 : undefined)),
      cell(queuing?.queues), cell(queuing?.handSize), cell(queuing?.queueLengthLimit), age(pl, now),
    ];
  },
};
