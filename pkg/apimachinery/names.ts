// Name and key validation with upstream's exact messages (k8s.io/apimachinery/pkg/util/validation).
//
//   isDNS1123Subdomain(v: string): string[]      // [] when valid, else upstream's messages
//   isDNS1123Label(v: string): string[]
//   isDNS1035Label(v: string): string[]
//   isQualifiedName(v: string): string[]         // label keys, annotation keys, finalizers
//   isValidLabelValue(v: string): string[]
//   nameIsDNSSubdomain / nameIsDNSLabel / nameIsDNS1035Label / nameIsPathSegment: NameValidator  // (name, prefix)
//   generateNameSuffix(): string                 // 5 chars from upstream's alphabet
//   generateName(base: string): string           // base (cut to fit 63) + suffix, as SimpleNameGenerator
import { randomInt } from 'node:crypto';

export type NameValidator = (name: string, prefix: boolean) => string[];

export const maxLenError = (length: number): string => `must be no more than ${length} characters`;
export const EMPTY_ERROR = 'must be non-empty';

/** Upstream's RegexError: the message, the examples (joined oddly, as upstream does) and the regex. */
export const regexError = (msg: string, fmt: string, ...examples: string[]): string => {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  const eg = examples.map((e) => `'${e}', `).join(' or ');
  return `${msg} (e.g. ${eg}regex used for validation is '${fmt}')`;
};

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const QNAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QNAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${QNAME_FMT})?`;
const LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const full = (fmt: string): RegExp => new RegExp(`^${fmt}$`);
const dns1123Label = full(DNS1123_LABEL_FMT);
const dns1123Subdomain = full(DNS1123_SUBDOMAIN_FMT);
const dns1035Label = full(DNS1035_LABEL_FMT);
const qualifiedName = full(QNAME_FMT);
const labelValue = full(LABEL_VALUE_FMT);

export const DNS1123_LABEL_MAX = 63;
export const DNS1123_SUBDOMAIN_MAX = 253;

export const isDNS1123Label = (v: string): string[] => {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!dns1123Label.test(v)) {
    errs.push(dns1123Subdomain.test(v) ? 'must not contain dots' : regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
};

export const isDNS1123Subdomain = (v: string): string[] => {
  const errs: string[] = [];
  if (v.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!dns1123Subdomain.test(v)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
};

export const isDNS1035Label = (v: string): string[] => {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!dns1035Label.test(v)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
};

export const isQualifiedName = (v: string): string[] => {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0];
  } else if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else for (const m of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${m}`);
  } else {
    return [`a qualified name ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (name.length > DNS1123_LABEL_MAX) errs.push(`name part ${maxLenError(DNS1123_LABEL_MAX)}`);
  if (!qualifiedName.test(name)) errs.push(`name part ${regexError(QNAME_MSG, QNAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
};

export const isValidLabelValue = (v: string): string[] => {
  const errs: string[] = [];
  if (v.length > DNS1123_LABEL_MAX) errs.push(maxLenError(DNS1123_LABEL_MAX));
  if (!labelValue.test(v)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
};

/** A generateName prefix may end in '-': upstream masks the trailing dash before validating. */
const maskTrailingDash = (name: string): string => (name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name);

export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** Path segment names (RBAC and others validate names only this way): ValidatePathSegmentName. */
export const nameIsPathSegment: NameValidator = (name, prefix) => {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((bad) => name.includes(bad)).map((bad) => `may not contain '${bad}'`);
};

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;
export const MAX_GENERATED_NAME_LENGTH = DNS1123_LABEL_MAX - SUFFIX_LENGTH;

export const generateNameSuffix = (): string => {
  let s = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) s += SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)];
  return s;
};

export const generateName = (base: string): string =>
  `${base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base}${generateNameSuffix()}`;

const WILDCARD_DNS1123_SUBDOMAIN_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_DNS1123_SUBDOMAIN_MSG = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123Subdomain = full(WILDCARD_DNS1123_SUBDOMAIN_FMT);

/** Upstream's IsWildcardDNS1123Subdomain: `*.` and a DNS subdomain (Ingress hosts). */
export const isWildcardDNS1123Subdomain = (v: string): string[] => {
  const errs: string[] = [];
  if (v.length > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!wildcardDNS1123Subdomain.test(v)) errs.push(regexError(WILDCARD_DNS1123_SUBDOMAIN_MSG, WILDCARD_DNS1123_SUBDOMAIN_FMT, '*.example.com'));
  return errs;
};
