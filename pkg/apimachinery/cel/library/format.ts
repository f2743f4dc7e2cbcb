// Kubernetes' format library (upstream: apiserver/pkg/cel/library/format.go): named formats that validate a
// string to an optional list of errors (none when valid), as format.named("dns1123Label") or format.dns1123Label().
import { celFunc, celMethod, type CelFunc } from '@bufbuild/cel';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../../names.js';
import { FORMAT_TYPE, OPTIONAL_TYPE, STRING, optionalNone, optionalOf } from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const FORMATS: Record<string, (s: string) => string[]> = {
  dns1123Label: isDNS1123Label,
  dns1123Subdomain: isDNS1123Subdomain,
  dns1035Label: isDNS1035Label,
  qualifiedName: isQualifiedName,
  dns1123LabelPrefix: (s) => nameIsDNSLabel(s, true),
  dns1123SubdomainPrefix: (s) => nameIsDNSSubdomain(s, true),
  dns1035LabelPrefix: (s) => nameIsDNS1035Label(s, true),
  labelValue: isValidLabelValue,
  uri: (s) => (/^([A-Za-z][A-Za-z0-9+.-]*:\S+|\/\S*)$/.test(s) ? [] : [`invalid URI: parse ${JSON.stringify(s)}: invalid URI for request`]),
  uuid: (s) => (UUID.test(s) ? [] : ['does not match the UUID format']),
  byte: (s) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s) ? [] : ['invalid base64']),
  date: (s) => (DATE.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid date']),
  datetime: (s) => (DATETIME.test(s) && !Number.isNaN(Date.parse(s)) ? [] : ['invalid datetime']),
};

export const formatFuncs: CelFunc[] = [
  celFunc('format.named', [STRING], OPTIONAL_TYPE, (name) => (Object.hasOwn(FORMATS, name) ? optionalOf(FORMAT_TYPE.of(name)) : optionalNone())),
  ...Object.keys(FORMATS).map((name) => celFunc(`format.${name}`, [], FORMAT_TYPE.type, () => FORMAT_TYPE.of(name))),
  celMethod('validate', FORMAT_TYPE.type, [STRING], OPTIONAL_TYPE, function (s) {
    const errs = FORMATS[FORMAT_TYPE.text(this)]!(s);
    return errs.length ? optionalOf(errs) : optionalNone();
  }),
];
