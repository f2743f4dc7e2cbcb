// A Job's spec, wherever it appears (a Job, a CronJob's jobTemplate), as upstream's validateJobSpec checks it around
// the pod spec (pkg/apis/batch/validation): counts not negative, completion mode and the per-index backoff, the pod
// failure and success policies, pod replacement, the template's metadata and a restartPolicy of OnFailure or Never.
//
//   validateJobSpec(spec, path): StatusCause[]    // path: "spec", "spec.jobTemplate.spec"
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, notSupported, required, tooLong } from '../../apimachinery/field.js';
import { isDNS1123Subdomain, isQualifiedName, regexError } from '../../apimachinery/names.js';
import { goInt32Slice, goPointer, goQuote, goStruct, invalidOmitted, invalidRendered, tooMany } from './go-values.js';
import { indexesFormat } from './job-indexes.js';
import { nonNegative } from './numbers.js';
import { podSpecOf, validatePodTemplateMeta } from './pod-template.js';
import { asObj, domainPrefixedPath } from './field-checks.js';

type Obj = Record<string, any>;

const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

const MAX_PARALLELISM_INDEXED = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_ON_EXIT_CODES_VALUES = 255;
const MAX_ON_POD_CONDITIONS_PATTERNS = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES = 20;

/** sets.List order (sorted), as upstream lists the supported values. */
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_CODE_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];

/** Go's %q of a sorted string slice inside a message: ["A" "B"]. */
const goQuotedList = (values: string[]): string => `[${values.map(goQuote).join(' ')}]`;

function validateOnExitCodes(onExitCodes: Obj, path: string, containerNames: Set<string>): StatusCause[] {
  const causes: StatusCause[] = [];
  const operator = onExitCodes.operator ?? '';
  if (operator === '') causes.push(required(`${path}.operator`, `valid values: ${goQuotedList(EXIT_CODE_OPERATORS)}`));
  else if (!EXIT_CODE_OPERATORS.includes(operator)) causes.push(notSupported(`${path}.operator`, operator, EXIT_CODE_OPERATORS));
  if (typeof onExitCodes.containerName === 'string' && !containerNames.has(onExitCodes.containerName)) {
    causes.push(invalidValue(`${path}.containerName`, onExitCodes.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values: unknown[] = Array.isArray(onExitCodes.values) ? onExitCodes.values : [];
  const valuesPath = `${path}.values`;
  if (values.length === 0) causes.push(invalidRendered(valuesPath, goInt32Slice(onExitCodes.values), 'at least one value is required'));
  else if (values.length > MAX_ON_EXIT_CODES_VALUES) causes.push(tooMany(valuesPath, values.length, MAX_ON_EXIT_CODES_VALUES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    const value = typeof v === 'number' ? v : 0;
    if (operator === 'In' && value === 0) causes.push(invalidValue(`${valuesPath}[${j}]`, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) causes.push(duplicate(`${valuesPath}[${j}]`, value));
    else seen.add(value);
    if (j > 0 && (num(values[j - 1]) ?? 0) > value) ordered = false;
  });
  if (!ordered) causes.push(invalidRendered(valuesPath, goInt32Slice(values), 'must be ordered'));
  return causes;
}

function validateOnPodConditions(patterns: unknown[], path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (patterns.length > MAX_ON_POD_CONDITIONS_PATTERNS) causes.push(tooMany(path, patterns.length, MAX_ON_POD_CONDITIONS_PATTERNS));
  patterns.forEach((p, j) => {
    const pattern = asObj(p) ?? {};
    const type = String(pattern.type ?? '');
    causes.push(...isQualifiedName(type).map((m) => invalidValue(`${path}[${j}].type`, type, m)));
    const status = pattern.status ?? '';
    if (status === '') causes.push(required(`${path}[${j}].status`, `valid values: ${goQuotedList(CONDITION_STATUSES)}`));
    else if (!CONDITION_STATUSES.includes(status)) causes.push(notSupported(`${path}[${j}].status`, status, CONDITION_STATUSES));
  });
  return causes;
}

function validatePodFailurePolicy(spec: Obj, policy: Obj, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const rules: unknown[] = Array.isArray(policy.rules) ? policy.rules : [];
  const rulesPath = `${path}.rules`;
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) causes.push(tooMany(rulesPath, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const podSpec = podSpecOf(spec.template);
  const containerNames = new Set<string>();
  for (const c of [...(Array.isArray(podSpec.containers) ? podSpec.containers : []), ...(Array.isArray(podSpec.initContainers) ? podSpec.initContainers : [])]) {
    if (typeof asObj(c)?.name === 'string') containerNames.add(c.name);
  }
  rules.forEach((r, i) => {
    const rule = asObj(r) ?? {};
    const rulePath = `${rulesPath}[${i}]`;
    const action = rule.action ?? '';
    if (action === '') causes.push(required(`${rulePath}.action`, `valid values: ${goQuotedList(ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (!isSet(spec.backoffLimitPerIndex)) causes.push(invalidValue(`${rulePath}.action`, action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!ACTIONS.includes(action)) causes.push(notSupported(`${rulePath}.action`, action, ACTIONS));
    const onExitCodes = asObj(rule.onExitCodes);
    const onPodConditions: unknown[] = Array.isArray(rule.onPodConditions) ? rule.onPodConditions : [];
    if (onExitCodes) causes.push(...validateOnExitCodes(onExitCodes, `${rulePath}.onExitCodes`, containerNames));
    if (onPodConditions.length > 0) causes.push(...validateOnPodConditions(onPodConditions, `${rulePath}.onPodConditions`));
    if (onExitCodes && onPodConditions.length > 0) causes.push(invalidOmitted(rulePath, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!onExitCodes && onPodConditions.length === 0) causes.push(invalidOmitted(rulePath, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return causes;
}

const goSuccessPolicy = (policy: Obj): string => {
  const rules: unknown[] = Array.isArray(policy.rules) ? policy.rules : [];
  const rendered = rules.map((r) => {
    const rule = asObj(r) ?? {};
    return goStruct('batch.SuccessPolicyRule', [
      ['SucceededIndexes', goPointer('string', typeof rule.succeededIndexes === 'string')],
      ['SucceededCount', goPointer('int32', typeof rule.succeededCount === 'number')],
    ]);
  });
  return goStruct('batch.SuccessPolicy', [['Rules', Array.isArray(policy.rules) ? `[]batch.SuccessPolicyRule{${rendered.join(', ')}}` : '[]batch.SuccessPolicyRule(nil)']]);
};

function validateSuccessPolicy(spec: Obj, policy: Obj, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const rules: unknown[] = Array.isArray(policy.rules) ? policy.rules : [];
  const rulesPath = `${path}.rules`;
  if (rules.length === 0) causes.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) causes.push(tooMany(rulesPath, rules.length, MAX_SUCCESS_POLICY_RULES));
  const completions = num(spec.completions) ?? 0;
  rules.forEach((r, i) => {
    const rule = asObj(r) ?? {};
    const rulePath = `${rulesPath}[${i}]`;
    const indexes = typeof rule.succeededIndexes === 'string' ? rule.succeededIndexes : undefined;
    const count = num(rule.succeededCount);
    if (indexes === undefined && count === undefined) causes.push(required(rulePath, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (indexes !== undefined) {
      if (indexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) causes.push(tooLong(`${rulePath}.succeededIndexes`, MAX_SUCCEEDED_INDEXES_LENGTH));
      const parsed = indexesFormat(indexes, completions);
      total = parsed.total;
      if (parsed.error) causes.push(invalidValue(`${rulePath}.succeededIndexes`, indexes, `error parsing succeededIndexes: ${parsed.error}`));
    }
    if (count !== undefined) {
      const countPath = `${rulePath}.succeededCount`;
      causes.push(...nonNegative(count, countPath));
      if (count > completions) causes.push(invalidValue(countPath, count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (indexes !== undefined && count > total) {
        causes.push(invalidValue(countPath, count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
      }
    }
  });
  return causes;
}

function validateIndexed(spec: Obj, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const completions = num(spec.completions);
  const parallelism = num(spec.parallelism);
  const maxFailed = num(spec.maxFailedIndexes);
  if (!isSet(spec.completions)) causes.push(required(`${path}.completions`, 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED) {
    causes.push(invalidValue(`${path}.parallelism`, parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
  }
  if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) {
    causes.push(invalidValue(`${path}.maxFailedIndexes`, maxFailed, 'must be less than or equal to completions'));
  }
  if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES) {
    causes.push(invalidValue(`${path}.maxFailedIndexes`, maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES}`));
  }
  if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && isSet(spec.backoffLimitPerIndex)) {
    if (maxFailed === undefined) causes.push(required(`${path}.maxFailedIndexes`, `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
    if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_HIGH_COMPLETIONS) {
      causes.push(invalidValue(`${path}.parallelism`, parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`));
    }
    if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_HIGH_COMPLETIONS) {
      causes.push(invalidValue(`${path}.maxFailedIndexes`, maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES_HIGH_COMPLETIONS} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`));
    }
  }
  return causes;
}

export function validateJobSpec(specValue: unknown, path: string): StatusCause[] {
  const spec = asObj(specValue) ?? {};
  const causes: StatusCause[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex']) {
    causes.push(...nonNegative(spec[f], `${path}.${f}`));
  }
  if (isSet(spec.maxFailedIndexes)) {
    causes.push(...nonNegative(spec.maxFailedIndexes, `${path}.maxFailedIndexes`));
    if (!isSet(spec.backoffLimitPerIndex)) causes.push(required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  }
  if (typeof spec.managedBy === 'string') {
    causes.push(...domainPrefixedPath(`${path}.managedBy`, spec.managedBy));
    if (spec.managedBy.length > MAX_MANAGED_BY_LENGTH) causes.push(tooLong(`${path}.managedBy`, MAX_MANAGED_BY_LENGTH));
  }
  const mode = spec.completionMode;
  if (isSet(mode)) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') causes.push(notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') causes.push(...validateIndexed(spec, path));
  }
  if (!isSet(mode) || mode === 'NonIndexed') {
    if (isSet(spec.backoffLimitPerIndex)) causes.push(invalidValue(`${path}.backoffLimitPerIndex`, spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (isSet(spec.maxFailedIndexes)) causes.push(invalidValue(`${path}.maxFailedIndexes`, spec.maxFailedIndexes, 'requires indexed completion mode'));
  }
  const podFailurePolicy = asObj(spec.podFailurePolicy);
  if (podFailurePolicy) causes.push(...validatePodFailurePolicy(spec, podFailurePolicy, `${path}.podFailurePolicy`));
  const successPolicy = asObj(spec.successPolicy);
  if (successPolicy) {
    if (mode !== 'Indexed') causes.push(invalidRendered(`${path}.successPolicy`, goSuccessPolicy(successPolicy), 'requires indexed completion mode'));
    else causes.push(...validateSuccessPolicy(spec, successPolicy, `${path}.successPolicy`));
  }
  const replacement = spec.podReplacementPolicy;
  if (isSet(replacement)) {
    if (podFailurePolicy) {
      if (replacement !== 'Failed') causes.push(notSupported(`${path}.podReplacementPolicy`, replacement, ['Failed']));
    } else if (!REPLACEMENT_POLICIES.includes(replacement)) {
      causes.push(notSupported(`${path}.podReplacementPolicy`, replacement, REPLACEMENT_POLICIES));
    }
  }
  const template = asObj(spec.template);
  causes.push(...validatePodTemplateMeta(template, `${path}.template`));
  // the pod spec's restartPolicy defaults to Always, so both that and "" are "not given"
  const restartPolicy = podSpecOf(template).restartPolicy ?? '';
  const restartPath = `${path}.template.spec.restartPolicy`;
  if (restartPolicy === 'Always' || restartPolicy === '') {
    causes.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  } else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') {
    causes.push(notSupported(restartPath, restartPolicy, ['OnFailure', 'Never']));
  } else if (podFailurePolicy && restartPolicy !== 'Never') {
    causes.push(invalidValue(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  }
  return causes;
}
