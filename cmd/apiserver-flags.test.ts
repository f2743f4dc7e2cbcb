import { parseGoDurationMs } from '../pkg/apimachinery/duration.js';
import { describe, expect, it } from 'vitest';
import { apiServerFlags, parsePortRange, validateApiServerFlags, withImpliedFlags } from './apiserver-flags.js';
import { controllerManagerFlags } from './controller-manager.js';
import { parseFlags } from './flags.js';

const check = (...argv: string[]) => () => validateApiServerFlags(parseFlags(argv, apiServerFlags).values);

describe('apiserver flags', () => {
  it('defaults to what the contract names', () => {
    const v = parseFlags([], apiServerFlags).values;
    expect(v).toMatchObject({
      'data-dir': './.mini-kube', 'secure-port': 6443, 'bind-address': '127.0.0.1', 'authorization-mode': ['Node', 'RBAC'],
      'anonymous-auth': true, 'storage-backend': 'leveldb', 'max-requests-inflight': 400, 'max-mutating-requests-inflight': 200,
      'service-cluster-ip-range': '10.96.0.0/12', 'feature-gates': {}, 'allow-privileged': false, 'cert-dir': '', 'advertise-address': '',
    });
    expect(check()).not.toThrow();
  });

  it('refuses what kube-apiserver refuses', () => {
    expect(check('--secure-port=70000')).toThrow('must be between 0 and 65535');
    expect(check('--bind-address=localhost')).toThrow('is not an IP address');
    expect(check('--advertise-address=localhost')).toThrow('--advertise-address "localhost" is not an IP address');
    expect(check('--event-ttl=1 hour')).toThrow('--event-ttl "1 hour" is not a duration');
    expect(check('--shutdown-delay-duration=-5s')).toThrow('--shutdown-delay-duration can not be negative value');
    expect(check('--shutdown-delay-duration=5 s')).toThrow('--shutdown-delay-duration "5 s" is not a duration');
    expect(check('--shutdown-delay-duration=70s', '--shutdown-send-retry-after')).not.toThrow();
    expect(check('--service-node-port-range=32767-30000')).toThrow('is not a port range');
    expect(check('--service-account-max-token-expiration=30m')).toThrow('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    expect(check('--service-account-max-token-expiration=24h')).not.toThrow();
    expect(check('--tls-min-version=TLS12')).toThrow('unknown tls version "TLS12"');
    expect(check('--tls-cipher-suites=TLS_FANCY')).toThrow('Cipher suite TLS_FANCY not supported or doesn\'t exist');
    expect(check('--tls-min-version=VersionTLS13', '--tls-cipher-suites=TLS_RSA_WITH_AES_128_GCM_SHA256')).toThrow('cipher suites may not be specified when --tls-min-version is \'VersionTLS13\'');
    expect(check('--tls-min-version=VersionTLS12', '--tls-cipher-suites=TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305,TLS_AES_128_GCM_SHA256')).not.toThrow();
    expect(check('--kubelet-client-certificate=k.crt')).toThrow('--kubelet-client-certificate and --kubelet-client-key must be given together');
    expect(check('--kubelet-preferred-address-types=InternalIP,Internal')).toThrow('"Internal" is not one of Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP');
    expect([parsePortRange('30000-32767'), parsePortRange('30000+2767'), parsePortRange('8080'), parsePortRange('0-10'), parsePortRange('1-70000')])
      .toEqual([{ min: 30000, max: 32767 }, { min: 30000, max: 32767 }, { min: 8080, max: 8080 }, undefined, undefined]);
    expect(check('--tls-cert-file=a.crt')).toThrow('must be given together');
    expect(check('--proxy-client-cert-file=p.crt')).toThrow('--proxy-client-cert-file and --proxy-client-key-file must be given together');
    expect(check('--authorization-mode=Node,Magic')).toThrow('"Magic" is not one of');
    expect(check('--authorization-mode=RBAC,RBAC')).toThrow('more than once');
    expect(check('--authorization-mode=ABAC')).toThrow('needs --authorization-policy-file');
    expect(check('--authorization-mode=Webhook')).toThrow('authorization-mode Webhook\'s authorization config file not passed');
    expect(check('--authorization-webhook-config-file=w.kubeconfig')).toThrow('without mode Webhook');
    expect(check('--authorization-mode=Node,Webhook', '--authorization-webhook-config-file=w', '--authorization-webhook-cache-authorized-ttl=5 min')).toThrow('is not a duration');
    expect(check('--authorization-mode=Node,Webhook', '--authorization-webhook-config-file=w', '--authorization-webhook-version=v1beta1')).not.toThrow();
    expect(check('--storage-backend=etcd3')).toThrow('--etcd-servers must be specified');
    expect(check('--storage-backend=etcd3', '--etcd-servers=127.0.0.1:2379')).toThrow('is not an http(s)://host:port URL');
    expect(check('--storage-backend=etcd3', '--etcd-servers=https://e1:2379,https://e2:2379', '--etcd-certfile=c.crt')).toThrow('go together');
    expect(check('--storage-backend=etcd3', '--etcd-servers=https://e1:2379', '--etcd-certfile=c.crt', '--etcd-keyfile=c.key')).toThrow('needs --etcd-cafile');
    expect(check('--storage-backend=etcd3', '--etcd-servers=https://e1:2379,https://e2:2379', '--etcd-prefix=/k8s')).not.toThrow();
    expect(check('--etcd-prefix=k8s')).toThrow('must start with /');
    expect(check('--service-cluster-ip-range=10.96.0.0/33')).toThrow('is not a CIDR');
    expect(check('--service-cluster-ip-range=fd00::/108', '--authorization-mode=Node,RBAC', '--bind-address=0.0.0.0')).not.toThrow();
  });

  it('refuses a feature gate Kubernetes 1.32 does not know, as kube-apiserver and kube-controller-manager do', () => {
    for (const spec of [apiServerFlags, controllerManagerFlags]) {
      expect(() => parseFlags(['--feature-gates=Bogus=true'], spec)).toThrow('invalid argument "Bogus=true" for "--feature-gates" flag: unrecognized feature gate: Bogus');
      expect(parseFlags(['--feature-gates=APIResponseCompression=false,MaxUnavailableStatefulSet=true,Initializers=true,AllAlpha=false,WatchListClient=true,ContextualLogging=true'], spec).values['feature-gates'])
        .toEqual({ APIResponseCompression: false, MaxUnavailableStatefulSet: true, Initializers: true, AllAlpha: false, WatchListClient: true, ContextualLogging: true });
    }
  });

  it('reads --cert-dir and --etcd-servers alone as kube-apiserver does (envtest gives only those)', () => {
    const implied = (...argv: string[]) => { const p = parseFlags(argv, apiServerFlags); return withImpliedFlags(p.values, p.given); };
    expect(implied('--cert-dir=/tmp/c', '--etcd-servers=http://127.0.0.1:2379')).toMatchObject({ 'data-dir': '/tmp/c', 'storage-backend': 'etcd3' });
    expect(implied('--cert-dir=/tmp/c', '--data-dir=/d', '--etcd-servers=http://e:2379', '--storage-backend=leveldb')).toMatchObject({ 'data-dir': '/d', 'storage-backend': 'leveldb' });
    expect(implied()).toMatchObject({ 'data-dir': './.mini-kube', 'storage-backend': 'leveldb' });
  });

  it('takes the audit backends\' flags and checks them', () => {
    const v = parseFlags(['--audit-log-format=legacy', '--audit-log-maxsize=5', '--audit-webhook-mode=blocking', '--audit-webhook-batch-max-wait=2s'], apiServerFlags).values;
    expect([v['audit-log-format'], v['audit-log-maxsize'], v['audit-webhook-mode']]).toEqual(['legacy', 5, 'blocking']);
    expect(() => validateApiServerFlags(v)).not.toThrow();
    expect(() => parseFlags(['--audit-log-format=xml'], apiServerFlags)).toThrow();
    expect(() => validateApiServerFlags({ ...v, 'audit-webhook-batch-max-wait': 'soon' })).toThrow('--audit-webhook-batch-max-wait "soon" is not a duration');
  });

  it('takes the authentication flags and checks them', () => {
    const v = parseFlags(['--oidc-issuer-url=https://issuer.example', '--oidc-client-id=k', '--service-account-issuer=https://a,https://b'], apiServerFlags).values;
    expect(v['service-account-issuer']).toEqual(['https://a', 'https://b']);
    expect(() => validateApiServerFlags(v)).not.toThrow();
    expect(() => validateApiServerFlags({ ...v, 'oidc-client-id': '' })).toThrow('--oidc-client-id must be given with --oidc-issuer-url');
    expect(() => validateApiServerFlags({ ...v, 'oidc-issuer-url': 'http://x' })).toThrow('must use the https scheme');
    expect(() => validateApiServerFlags({ ...v, 'authentication-token-webhook-cache-ttl': '2 minutes' })).toThrow('is not a duration');
    expect(parseGoDurationMs('2m0s')).toBe(120_000);
    expect(parseGoDurationMs('1h30m')).toBe(5_400_000);
    expect(parseGoDurationMs('500ms')).toBe(500);
  });
});
