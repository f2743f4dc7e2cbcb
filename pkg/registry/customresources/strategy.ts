// How a custom resource differs from the generic store (upstream: registry/customresource/strategy.go and
// validator.go): generation on every change outside metadata and status, status through /status when the
// subresource is on, schema + embedded-resource + CEL validation as 422 field errors, the scale subresource over
// the CRD's JSONPaths, strategic merge patch refused, creates refused while the CRD terminates.
import type { CustomResourceSubresourceScale, JSONSchemaProps } from '../../../api/apiextensions/v1/index.js';
import type { KubeObject } from '../../../api/types.js';
import { methodNotAllowed, type StatusCause } from '../../apimachinery/errors.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels.js';
import type { Strategy } from '../strategy.js';
import { hasRules, validateRules } from './cel.js';
import { findFirst, setPath, simplePath } from './jsonpath.js';
import { compileValidator, validateEmbedded, validateWithSchema } from './validation.js';
import { cloneJson } from '../../apimachinery/json-clone.js';

export interface CustomResourceStrategyOptions {
  schema: JSONSchemaProps | undefined;
  hasStatus: boolean;
  scale?: CustomResourceSubresourceScale;
  /** Whether the CRD is being deleted (creates are refused meanwhile). */
  terminating(): boolean;
  kind: string;
}

export function customResourceStrategy(o: CustomResourceStrategyOptions): Strategy {
  const validator = compileValidator(o.schema);
  const rules = hasRules(o.schema);
  const check = (obj: KubeObject): StatusCause[] => {
    // Metadata is ObjectMeta, validated by the generic store; the schema sees the rest.
    const { metadata: _m, ...rest } = obj;
    return [...validateWithSchema(validator, rest), ...validateEmbedded(obj, o.schema)];
  };
  const celCauses = (obj: KubeObject, old: KubeObject | undefined): StatusCause[] =>
    (rules ? validateRules(celView(obj), old && celView(old), o.schema) : []);
  const checkUpdate = (obj: KubeObject, old: KubeObject): StatusCause[] => {
    const causes = check(obj);
    return causes.length ? causes : celCauses(obj, old);
  };

  const strategy: Strategy = {
    generation: true,
    strategicMergePatch: false,
    statusKeepsMetadata: 'all',
    allowUnconditionalUpdate: false,
    validate: (obj) => {
      const causes = check(obj);
      return causes.length ? causes : celCauses(obj, undefined);
    },
    // An update is validated whole here: its rules see oldSelf (transition rules run, optionalOldSelf ones get it
    // as an optional, messages may read it), as upstream's one validation with the old object.
    updateValidationIsComplete: true,
    validateUpdate: (obj, old) => checkUpdate(obj, old),
    validateSubresource: (obj, old, _ctx, subresource) => (subresource === 'status' ? checkUpdate(obj, old) : []),
    beforeCreate: () => {
      if (o.terminating()) throw methodNotAllowed('create not allowed while custom resource definition is terminating');
    },
  };
  if (o.scale) strategy.scale = scaleAccess(o.scale);
  return strategy;
}

/** Rules see metadata as upstream's CEL does: name and generateName only. */
function celView(obj: KubeObject): KubeObject {
  const meta: Record<string, unknown> = {};
  if (obj.metadata?.name !== undefined) meta.name = obj.metadata.name;
  if (obj.metadata?.generateName !== undefined) meta.generateName = obj.metadata.generateName;
  return { ...obj, metadata: meta };
}

function scaleAccess(s: CustomResourceSubresourceScale): NonNullable<Strategy['scale']> {
  const replicasPath = simplePath(s.specReplicasPath);
  return {
    replicasPath,
    get(obj) {
      const m = obj.metadata ?? {};
      const replicas = findFirst(obj, s.specReplicasPath);
      const statusReplicas = findFirst(obj, s.statusReplicasPath);
      let selector = '';
      if (s.labelSelectorPath) {
        const sel = findFirst(obj, s.labelSelectorPath);
        selector = typeof sel === 'string' ? sel : sel && typeof sel === 'object' ? labelSelectorAsSelector(sel as never).toString() : '';
      }
      const status: Record<string, unknown> = { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 };
      if (selector) status.selector = selector;
      return {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
        spec: { replicas: typeof replicas === 'number' ? replicas : 0 },
        status,
      };
    },
    set(obj, replicas) {
      const next = cloneJson(obj);
      setPath(next, replicasPath, replicas);
      return next;
    },
  };
}
