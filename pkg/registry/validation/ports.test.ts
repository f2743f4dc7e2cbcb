import { describe, expect, it } from 'vitest';
import type { StatusCause } from '../../apimachinery/errors.js';
import { causeToString } from '../../apimachinery/field.js';
import { validateContainerPorts, validatePortNumOrName } from './ports.js';

const errors = (ports: unknown): string[] => {
  const out: StatusCause[] = [];
  validateContainerPorts(ports, 'spec.containers[0].ports', out);
  return out.map(causeToString);
};

describe('container ports', () => {
  it('checks numbers, protocols and names', () => {
    expect(errors([
      { containerPort: 99999, protocol: 'XTP' },
      { containerPort: 0, hostPort: -1, protocol: 'TCP', name: 'Web--' },
      { containerPort: 80, protocol: 'TCP', name: 'http' },
      { containerPort: 81, protocol: 'TCP', name: 'http' },
      { containerPort: 82, protocol: '', name: 'a-very-long-port-name' },
    ])).toEqual([
      'spec.containers[0].ports[0].containerPort: Invalid value: 99999: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[0].protocol: Unsupported value: "XTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.containers[0].ports[1].name: Invalid value: "Web--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.containers[0].ports[1].name: Invalid value: "Web--": must not contain consecutive hyphens',
      'spec.containers[0].ports[1].name: Invalid value: "Web--": must not begin or end with a hyphen',
      'spec.containers[0].ports[1].containerPort: Required value',
      'spec.containers[0].ports[1].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[3].name: Duplicate value: "http"',
      'spec.containers[0].ports[4].name: Invalid value: "a-very-long-port-name": must be no more than 15 characters',
      'spec.containers[0].ports[4].protocol: Required value',
    ]);
  });

  it('leaves a missing containerPort to the schema check', () => {
    expect(errors([{ protocol: 'TCP' }])).toEqual([]);
  });

  it('takes a port number or an IANA_SVC_NAME where either will do', () => {
    const out: StatusCause[] = [];
    validatePortNumOrName(0, 'p', out);
    validatePortNumOrName('8080', 'q', out);
    validatePortNumOrName('http', 'r', out);
    validatePortNumOrName(undefined, 's', out);
    expect(out.map(causeToString)).toEqual([
      'p: Invalid value: 0: must be between 1 and 65535, inclusive',
      'q: Invalid value: "8080": must contain at least one letter (a-z)',
      's: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
  });
});
