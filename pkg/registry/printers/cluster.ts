// Cluster plumbing: leases, priority classes, pod disruption budgets, runtime classes and
// admission webhook configurations.
import { ageColumn, column, nameColumn, type Printer, simplePrinter } from './types.js';
import { age } from './duration.js';
import { selectorString, type SelectorLike } from '../../apimachinery/selector-string.js';

export const leasePrinter = simplePrinter([column('Holder', 'The identity that holds the lease.')], (lease) => [
  lease.spec?.holderIdentity ?? '',
]);

export const priorityClassPrinter: Printer = {
  columns: [
    nameColumn,
    column('Value', 'The priority pods of this class get.', 'integer'),
    column('Global-Default', 'Whether pods without a class get this one.', 'boolean'),
    ageColumn,
    column('PreemptionPolicy', 'Whether pods of this class may preempt lower-priority pods.'),
  ],
  cells: (pc, now) => [
    pc.metadata?.name ?? '',
    pc.value ?? 0,
    pc.globalDefault ?? false,
    age(pc, now),
    pc.preemptionPolicy ?? '',
  ],
};

export const podDisruptionBudgetPrinter = simplePrinter(
  [
    column('Min Available', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'How many pods may be disrupted right now.', 'integer'),
  ],
  (pdb) => [
    pdb.spec?.minAvailable !== undefined ? String(pdb.spec.minAvailable) : 'N/A',
    pdb.spec?.maxUnavailable !== undefined ? String(pdb.spec.maxUnavailable) : 'N/A',
    pdb.status?.disruptionsAllowed ?? 0,
  ],
);

export const runtimeClassPrinter = simplePrinter([column('Handler', 'The CRI handler that runs pods of this class.')], (rc) => [
  rc.handler ?? '',
]);

export const webhookConfigurationPrinter = simplePrinter(
  [column('Webhooks', 'How many webhooks the configuration registers.', 'integer')],
  (cfg) => [(cfg.webhooks ?? []).length],
);

/** Upstream's printValidatingAdmissionPolicy: its validations and the kind of its parameters. */
export const validatingAdmissionPolicyPrinter = simplePrinter(
  [
    column('Validations', 'Validations indicates the number of validation rules defined in this configuration', 'integer'),
    column('ParamKind', 'ParamKind specifies the kind of resources used to parameterize this policy'),
  ],
  (policy) => {
    const kind = policy.spec?.paramKind as { apiVersion?: string; kind?: string } | undefined;
    return [((policy.spec?.validations as unknown[] | undefined) ?? []).length, kind ? `${kind.apiVersion ?? ''}/${kind.kind ?? ''}` : '<unset>'];
  },
);

/**
 * Upstream's printValidatingAdmissionPolicyBinding: the policy and its parameter, named namespace/name ("*" for a
 * namespace it cannot tell), or its selector as Go prints the struct.
 */
export const validatingAdmissionPolicyBindingPrinter = simplePrinter(
  [
    column('PolicyName', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'ParamRef indicates the param resource which sets the configration param'),
  ],
  (binding) => {
    const ref = binding.spec?.paramRef as { name?: string; namespace?: string; selector?: SelectorLike } | undefined;
    const param = !ref ? '<unset>' : ref.name ? `${ref.namespace || '*'}/${ref.name}` : ref.selector ? selectorString(ref.selector) : '<unset>';
    return [binding.spec?.policyName ?? '', param];
  },
);

/** Upstream's printComponentStatus: the Healthy condition as Healthy/Unhealthy/Unknown, with its message and error. */
export const componentStatusPrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'Status of the component conditions'),
    column('Message', 'Message of the component conditions'),
    column('Error', 'Error of the component conditions'),
  ],
  cells: (cs) => {
    const healthy = (cs.conditions as { type?: string; status?: string; message?: string; error?: string }[] | undefined)?.find((c) => c.type === 'Healthy');
    const status = healthy?.status === 'True' ? 'Healthy' : healthy?.status === 'False' ? 'Unhealthy' : 'Unknown';
    return [cs.metadata?.name ?? '', status, healthy?.message ?? '', healthy?.error ?? ''];
  },
};
