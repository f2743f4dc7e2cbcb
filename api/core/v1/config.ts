// ConfigMaps, Secrets and ServiceAccounts.
import { arr, bool, kind, listKind, mapList, mapOf, ref, str, strMap, type Definitions } from '../../schema.js';
import { core, v1 } from './names.js';

export const configDefinitions: Definitions = {
  [core('ConfigMap')]: kind(v1('ConfigMap'), {
    binaryData: mapOf({ type: 'string', format: 'byte' }, 'Binary data, base64 encoded; keys must not overlap with data.'),
    data: strMap('Configuration data as UTF-8 strings; keys must not overlap with binaryData.'),
    immutable: bool('When true, the data can no longer change.'),
  }, 'Configuration data for pods to consume.'),
  [core('ConfigMapList')]: listKind(v1('ConfigMapList'), core('ConfigMap')),
  [core('Secret')]: kind(v1('Secret'), {
    data: mapOf({ type: 'string', format: 'byte' }, "Secret data, base64 encoded; keys are alphanumerics, '-', '_' or '.'."),
    immutable: bool('When true, the data can no longer change.'),
    stringData: strMap('Write-only convenience field of non-binary data, merged into data on write.'),
    type: str('Type of the secret, which governs how its data are checked.', { default: 'Opaque' }),
  }, 'Secret data of a given type, up to 1MiB.'),
  [core('SecretList')]: listKind(v1('SecretList'), core('Secret')),
  [core('ServiceAccount')]: kind(v1('ServiceAccount'), {
    automountServiceAccountToken: bool('Whether pods running as this account get a token mounted automatically.'),
    imagePullSecrets: arr(ref(core('LocalObjectReference')), 'Secrets used to pull images of pods that reference this account.'),
    secrets: mapList(ref(core('ObjectReference')), 'name', 'Deprecated list of secrets of the account; not used to mount tokens any more.'),
  }, 'An identity for processes in pods, with its secrets.'),
  [core('ServiceAccountList')]: listKind(v1('ServiceAccountList'), core('ServiceAccount')),
};
