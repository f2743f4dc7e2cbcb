// Scalar-like apimachinery types: timestamps, durations, quantities, int-or-string, raw JSON, version info.
import { anyObj, obj, str, type Definitions } from '../../schema.js';

export const scalarDefinitions: Definitions = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': str('An RFC 3339 timestamp with second precision.', { format: 'date-time' }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': str('An RFC 3339 timestamp with microsecond precision.', { format: 'date-time' }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration': str('A Go duration string such as "1h30m".'),
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    description: 'A fixed-point number with an optional suffix, such as "100m", "1Gi" or "1e3".',
    oneOf: [{ type: 'string' }, { type: 'number' }],
  },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': {
    description: 'A value that is either an integer or a string.',
    format: 'int-or-string',
    oneOf: [{ type: 'integer' }, { type: 'string' }],
    'x-kubernetes-int-or-string': true,
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': anyObj('An embedded object of any kind, kept as raw JSON.'),
  'io.k8s.apimachinery.pkg.version.Info': obj({
    buildDate: str('When the binary was built.', { default: '' }),
    compiler: str('The Go compiler used.', { default: '' }),
    gitCommit: str('The git commit the binary was built from.', { default: '' }),
    gitTreeState: str('Whether the tree was clean or dirty.', { default: '' }),
    gitVersion: str('The full semantic version, such as v1.32.0.', { default: '' }),
    goVersion: str('The Go version used.', { default: '' }),
    major: str('The major version.', { default: '' }),
    minor: str('The minor version.', { default: '' }),
    platform: str('The OS/architecture pair.', { default: '' }),
  }, 'Version information of the server.', {
    required: ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'],
  }),
};
