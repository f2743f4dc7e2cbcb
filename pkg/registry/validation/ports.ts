// Container ports, as upstream's validateContainerPorts, checkHostPortConflicts and ValidatePortNumOrName do.
import type { StatusCause } from '../../apimachinery/errors.js';
import { duplicate, invalidValue, notSupported, required } from '../../apimachinery/field.js';
import { isObj, list, str } from './field-checks.js';
import { isValidPortName, isValidPortNum } from './network.js';
import { int, isSet } from './shapes.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** `ports` of one container at `path` (".../ports"). Host IPs are not checked: upstream does not either. */
export function validateContainerPorts(ports: unknown, path: string, out: StatusCause[]): void {
  const items = list(ports);
  if (items.length === 0) return;
  let names: Set<string> | undefined;
  items.forEach((p, i) => {
    if (!isObj(p)) return;
    const at = `${path}[${i}]`;
    const name = str(p.name);
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length) for (const m of msgs) out.push(invalidValue(`${at}.name`, name, m));
      else if (names?.has(name)) out.push(duplicate(`${at}.name`, name));
      else (names ??= new Set()).add(name);
    }
    // a missing containerPort is the schema's Required; one sent as 0 is ours
    if (isSet(p.containerPort) && int(p.containerPort) === 0) out.push(required(`${at}.containerPort`));
    else if (isSet(p.containerPort)) for (const m of isValidPortNum(int(p.containerPort))) out.push(invalidValue(`${at}.containerPort`, p.containerPort, m));
    const hostPort = int(p.hostPort);
    if (hostPort !== 0) for (const m of isValidPortNum(hostPort)) out.push(invalidValue(`${at}.hostPort`, hostPort, m));
    const protocol = str(p.protocol);
    if (protocol === '') out.push(required(`${at}.protocol`));
    else if (!PROTOCOLS.includes(protocol)) out.push(notSupported(`${at}.protocol`, protocol, PROTOCOLS));
  });
}

/**
 * Host ports used twice (same protocol, host IP and port) among `containers`, reported at `listPath[i].ports[j].hostPort`
 * with upstream's "TCP/<hostIP>/80" value. Init containers run one at a time: each is checked alone (and, as upstream
 * does it, reported at index 0).
 */
export function validateHostPortConflicts(containers: readonly unknown[], listPath: string, out: StatusCause[]): void {
  let seen: Set<string> | undefined;
  containers.forEach((c, ci) => {
    if (!isObj(c)) return;
    list(c.ports).forEach((p, pi) => {
      if (!isObj(p)) return;
      const port = int(p.hostPort);
      if (port === 0) return;
      const key = `${str(p.protocol)}/${str(p.hostIP)}/${port}`;
      if (seen?.has(key)) out.push(duplicate(`${listPath}[${ci}].ports[${pi}].hostPort`, key));
      else (seen ??= new Set()).add(key);
    });
  });
}

/** ValidatePortNumOrName: an IntOrString port, a number in range or an IANA_SVC_NAME. */
export function validatePortNumOrName(port: unknown, path: string, out: StatusCause[]): void {
  if (typeof port === 'string') {
    for (const m of isValidPortName(port)) out.push(invalidValue(path, port, m));
    return;
  }
  // an absent IntOrString is Go's zero value: the number 0
  const n = int(port);
  for (const m of isValidPortNum(n)) out.push(invalidValue(path, n, m));
}
