// FlowSchemas and PriorityLevelConfigurations (upstream: pkg/apis/flowcontrol/validation): precedence in range,
// subjects that say who they match, rules that match something, limits that make sense.
import type { KubeObject } from '../../../api/types.js';
import type { StatusCause } from '../../apimachinery/errors.js';
import { forbidden, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import type { Strategy } from '../strategy.js';

type Obj = Record<string, any>;

const SUBJECT_FIELD: Record<string, string> = { User: 'user', Group: 'group', ServiceAccount: 'serviceAccount' };

function validateSubject(s: Obj, path: string): StatusCause[] {
  const field = SUBJECT_FIELD[s.kind];
  if (!field) return [notSupported(`${path}.kind`, s.kind ?? '', Object.keys(SUBJECT_FIELD).sort())];
  const causes: StatusCause[] = [];
  if (!s[field]) causes.push(required(`${path}.${field}`, `${field} is required when subject kind is '${s.kind}'`));
  else if (field === 'serviceAccount' && !s[field].namespace) causes.push(required(`${path}.serviceAccount.namespace`, 'must specify namespace for service account'));
  else if (!s[field].name) causes.push(required(`${path}.${field}.name`));
  for (const other of Object.values(SUBJECT_FIELD)) {
    if (other !== field && s[other]) causes.push(forbidden(`${path}.${other}`, `${other} is forbidden when subject kind is not '${other.replace(/^./, (c) => c.toUpperCase())}'`));
  }
  return causes;
}

/** A list of names where "*" must stand alone. */
function wildcardList(values: string[] | undefined, path: string): StatusCause[] {
  if (!values?.length) return [required(path, `${path.slice(path.lastIndexOf('.') + 1)} must contain at least one value`)];
  return values.includes('*') && values.length > 1 ? [invalidValue(path, values, 'if \'*\' is present, must not specify other values')] : [];
}

function validateRules(rules: Obj[] | undefined): StatusCause[] {
  const causes: StatusCause[] = [];
  (rules ?? []).forEach((rule, i) => {
    const path = `spec.rules[${i}]`;
    if (!rule.subjects?.length) causes.push(required(`${path}.subjects`, 'subjects must contain at least one value'));
    (rule.subjects ?? []).forEach((s: Obj, j: number) => causes.push(...validateSubject(s, `${path}.subjects[${j}]`)));
    if (!rule.resourceRules?.length && !rule.nonResourceRules?.length) {
      causes.push(required(`${path}`, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
    }
    (rule.resourceRules ?? []).forEach((r: Obj, j: number) => {
      const p = `${path}.resourceRules[${j}]`;
      causes.push(...wildcardList(r.verbs, `${p}.verbs`), ...wildcardList(r.apiGroups, `${p}.apiGroups`), ...wildcardList(r.resources, `${p}.resources`));
      if (!r.clusterScope && !r.namespaces?.length) causes.push(required(`${p}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
    });
    (rule.nonResourceRules ?? []).forEach((r: Obj, j: number) => {
      const p = `${path}.nonResourceRules[${j}]`;
      causes.push(...wildcardList(r.verbs, `${p}.verbs`), ...wildcardList(r.nonResourceURLs, `${p}.nonResourceURLs`));
    });
  });
  return causes;
}

function validateFlowSchema(fs: KubeObject): StatusCause[] {
  const spec: Obj = fs.spec ?? {};
  const causes: StatusCause[] = [];
  const precedence = spec.matchingPrecedence ?? 1000;
  if (precedence < 1 || precedence > 10000) causes.push(invalidValue('spec.matchingPrecedence', precedence, 'must be between 1 and 10000, inclusive'));
  if (!spec.priorityLevelConfiguration?.name) causes.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  const method = spec.distinguisherMethod?.type;
  if (spec.distinguisherMethod && method !== 'ByUser' && method !== 'ByNamespace') {
    causes.push(notSupported('spec.distinguisherMethod.type', method ?? '', ['ByNamespace', 'ByUser']));
  }
  return [...causes, ...validateRules(spec.rules)];
}

const percent = (v: unknown, path: string): StatusCause[] =>
  typeof v === 'number' && (v < 0 || v > 100) ? [invalidValue(path, v, 'must be between 0 and 100, inclusive')] : [];

function validateLimited(l: Obj): StatusCause[] {
  const p = 'spec.limited';
  const causes: StatusCause[] = [];
  if ((l.nominalConcurrencyShares ?? 0) < 0) causes.push(invalidValue(`${p}.nominalConcurrencyShares`, l.nominalConcurrencyShares, 'must be a non-negative integer'));
  causes.push(...percent(l.lendablePercent, `${p}.lendablePercent`));
  if ((l.borrowingLimitPercent ?? 0) < 0) causes.push(invalidValue(`${p}.borrowingLimitPercent`, l.borrowingLimitPercent, 'if specified, must be a non-negative integer'));
  const response: Obj = l.limitResponse ?? {};
  if (response.type === 'Queue') {
    const q = response.queuing;
    if (!q) causes.push(required(`${p}.limitResponse.queuing`, 'must not be empty if limited.limitResponse.type is Queue'));
    else {
      const qp = `${p}.limitResponse.queuing`;
      if (q.queues <= 0) causes.push(invalidValue(`${qp}.queues`, q.queues, 'must be positive'));
      if (q.queueLengthLimit <= 0) causes.push(invalidValue(`${qp}.queueLengthLimit`, q.queueLengthLimit, 'must be positive'));
      if (q.handSize <= 0) causes.push(invalidValue(`${qp}.handSize`, q.handSize, 'must be positive'));
      else if (q.handSize > q.queues) causes.push(invalidValue(`${qp}.handSize`, q.handSize, `should not be greater than queues (${q.queues})`));
    }
  } else if (response.type === 'Reject') {
    if (response.queuing) causes.push(forbidden(`${p}.limitResponse.queuing`, 'must be nil if limited.limitResponse.type is not Limited'));
  } else {
    causes.push(notSupported(`${p}.limitResponse.type`, response.type ?? '', ['Queue', 'Reject']));
  }
  return causes;
}

function validatePriorityLevel(pl: KubeObject): StatusCause[] {
  const spec: Obj = pl.spec ?? {};
  if (spec.type === 'Limited') {
    if (!spec.limited) return [required('spec.limited', 'must not be empty when type is Limited')];
    return [...(spec.exempt ? [forbidden('spec.exempt', 'must be nil if the type is Limited')] : []), ...validateLimited(spec.limited)];
  }
  if (spec.type === 'Exempt') {
    const causes = spec.limited ? [forbidden('spec.limited', 'must be nil if the type is not Limited')] : [];
    if ((spec.exempt?.nominalConcurrencyShares ?? 0) < 0) causes.push(invalidValue('spec.exempt.nominalConcurrencyShares', spec.exempt.nominalConcurrencyShares, 'must be a non-negative integer'));
    return [...causes, ...percent(spec.exempt?.lendablePercent, 'spec.exempt.lendablePercent')];
  }
  return [notSupported('spec.type', spec.type ?? '', ['Exempt', 'Limited'])];
}

export const flowSchemaStrategy: Strategy = {
  statusKeepsMetadata: 'all',
  validate: (fs) => validateFlowSchema(fs),
  validateUpdate: (fs) => validateFlowSchema(fs),
};

export const priorityLevelStrategy: Strategy = {
  statusKeepsMetadata: 'all',
  validate: (pl) => validatePriorityLevel(pl),
  validateUpdate: (pl) => validatePriorityLevel(pl),
};
