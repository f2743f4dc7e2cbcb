// Namespaces, and the deprecated component statuses.
import { arr, enumStr, kind, listKind, mapList, obj, ref, str, type Definitions } from '../../schema.js';
import { core, meta, v1 } from './names.js';

export const namespaceDefinitions: Definitions = {
  [core('Namespace')]: kind(v1('Namespace'), {
    spec: ref(core('NamespaceSpec'), 'Behaviour of the namespace.'),
    status: ref(core('NamespaceStatus'), 'Current status of the namespace.'),
  }, 'A scope for names.'),
  [core('NamespaceList')]: listKind(v1('NamespaceList'), core('Namespace')),
  [core('NamespaceSpec')]: obj({
    finalizers: arr(str(), 'Values that must be removed before the namespace is deleted.'),
  }, 'Attributes of a namespace.'),
  [core('NamespaceStatus')]: obj({
    conditions: mapList(ref(core('NamespaceCondition')), 'type', "Latest observations of the namespace's state."),
    phase: enumStr(['Active', 'Terminating'], 'Phase of the namespace: Active or Terminating.'),
  }, 'Current status of a namespace.'),
  [core('NamespaceCondition')]: obj({
    lastTransitionTime: ref(meta('Time'), 'Last time the condition moved from one status to another.'),
    message: str('Human-readable details about the last transition or state.'),
    reason: str('Short machine-readable reason in CamelCase.'),
    status: str('Status of the condition: True, False or Unknown.'),
    type: str('Type of the condition, such as NamespaceDeletionContentFailure.'),
  }, 'One condition of a namespace.', { required: ['type', 'status'] }),
  [core('ComponentStatus')]: kind(v1('ComponentStatus'), {
    conditions: mapList(ref(core('ComponentCondition')), 'type', 'Observed conditions of the component.'),
  }, 'Status of a cluster component; deprecated.'),
  [core('ComponentStatusList')]: listKind(v1('ComponentStatusList'), core('ComponentStatus')),
  [core('ComponentCondition')]: obj({
    error: str('Error code of the component, such as a health check error.'),
    message: str('Message on the condition, such as health check output.'),
    status: str('Status of the condition: True, False or Unknown.'),
    type: str('Type of the condition: Healthy.'),
  }, 'One condition of a component.', { required: ['type', 'status'] }),
};
