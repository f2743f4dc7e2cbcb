import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../api/types.js';
import { validatePodStatusUpdate } from './pod-status.js';

const pod = (restartPolicy: string, status: Record<string, unknown>, initContainers: KubeObject[] = []): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
  spec: { restartPolicy, containers: [{ name: 'c', image: 'busybox' }], initContainers },
  status: { qosClass: 'BestEffort', ...status },
});
const ended = (exitCode: number) => ({ name: 'c', state: { terminated: { exitCode } } });
const running = { name: 'c', state: { running: {} } };
const messages = (next: KubeObject, old: KubeObject): string[] => validatePodStatusUpdate(next, old).map((c) => `${c.field}: ${c.message}`);

describe('pods/status validation', () => {
  it('keeps an ended container ended unless the pod restarts it', () => {
    const back = 'status.containerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state';
    expect(messages(pod('Never', { containerStatuses: [running] }), pod('Never', { containerStatuses: [ended(0)] }))).toEqual([back]);
    expect(messages(pod('OnFailure', { containerStatuses: [running] }), pod('OnFailure', { containerStatuses: [ended(0)] }))).toEqual([back]);
    expect(messages(pod('OnFailure', { containerStatuses: [running] }), pod('OnFailure', { containerStatuses: [ended(1)] }))).toEqual([]);
    expect(messages(pod('Always', { containerStatuses: [running] }), pod('Always', { containerStatuses: [ended(0)] }))).toEqual([]);
    // a sidecar restarts whatever the pod's policy
    const sidecar = [{ name: 'c', image: 'busybox', restartPolicy: 'Always' }];
    expect(messages(pod('Never', { initContainerStatuses: [running] }, sidecar), pod('Never', { initContainerStatuses: [ended(0)] }, sidecar))).toEqual([]);
    expect(messages(pod('Never', { initContainerStatuses: [running] }), pod('Never', { initContainerStatuses: [ended(1)] }))).toEqual(['status.initContainerStatuses[0].state: Forbidden: may not be transitioned to non-terminated state']);
  });

  it('checks the QoS class, the nominated node, the IPs and the pod\'s own condition types', () => {
    const old = pod('Always', {});
    expect(messages(pod('Always', { qosClass: 'Guaranteed' }), old)).toEqual(['status.qosClass: Invalid value: "Guaranteed": field is immutable']);
    expect(messages(pod('Always', { nominatedNodeName: 'Node_1' }), old)[0]).toMatch(/^status.nominatedNodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain/);
    expect(messages(pod('Always', { podIPs: [{ ip: '10.0.0.1' }, { ip: 'fd00::1' }], hostIP: '10.1.0.1', hostIPs: [{ ip: '10.1.0.1' }] }), old)).toEqual([]);
    expect(messages(pod('Always', { podIPs: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }] }), old)).toEqual(['status.podIPs: Invalid value: []string{"10.0.0.1", "10.0.0.2"}: may specify no more than one IP for each IP family']);
    expect(messages(pod('Always', { podIPs: [{ ip: 'nope' }] }), old)).toEqual(['status.podIPs[0]: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
    expect(messages(pod('Always', { hostIP: '10.1.0.2', hostIPs: [{ ip: '10.1.0.1' }] }), old)).toEqual(['status.hostIPs[0].ip: Invalid value: "10.1.0.1": must be equal to `hostIP`']);
    expect(messages(pod('Always', { conditions: [{ type: 'Ready', status: 'True' }, { type: 'example.com/gate', status: 'True' }, { type: 'bad gate', status: 'True' }] }), old))
      .toEqual([expect.stringMatching(/^metadata.conditions\[2\].Type: Invalid value: "bad gate": name part must consist of/)]);
  });

  it('keeps the mirror and AppArmor annotations as they were created', () => {
    // a mirror pod is bound to its node, or its annotation is refused as on any write
    const bound = pod('Always', {});
    bound.spec = { ...bound.spec, nodeName: 'n' };
    const withAnnotations = (annotations: Record<string, string>): KubeObject => ({ ...bound, metadata: { name: 'p', annotations } });
    const mirror = 'kubernetes.io/config.mirror';
    const apparmor = 'container.apparmor.security.beta.kubernetes.io/c';
    expect(messages(withAnnotations({ [mirror]: 'h2', other: 'x' }), withAnnotations({ [mirror]: 'h1' })))
      .toEqual([`metadata.annotations[${mirror}]: Forbidden: may not remove or update mirror pod annotation`]);
    expect(messages(withAnnotations({ [mirror]: 'h' }), withAnnotations({}))).toEqual([`metadata.annotations[${mirror}]: Forbidden: may not add mirror pod annotation`]);
    expect(messages(withAnnotations({}), withAnnotations({ [apparmor]: 'runtime/default' })))
      .toEqual([`metadata.annotations[${apparmor}]: Forbidden: may not remove or update AppArmor annotations`]);
    expect(messages(withAnnotations({ [apparmor]: 'unconfined' }), withAnnotations({}))).toEqual([`metadata.annotations[${apparmor}]: Forbidden: may not add AppArmor annotations`]);
    expect(messages(withAnnotations({ [mirror]: 'h', other: 'y' }), withAnnotations({ [mirror]: 'h', other: 'x' }))).toEqual([]);
  });
});
