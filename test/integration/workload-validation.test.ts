// What upstream's apps, batch and core validation refuse around the pod spec, judged by the real kubectl: bad
// Deployments, Jobs, CronJobs, Services and ConfigMaps are 422 with upstream's field paths and messages, what
// kubectl's generators make is taken, and a refused Service leaves no cluster IP allocated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], serviceClusterIpRange: '10.96.0.0/29' });
});
afterAll(async () => { await s?.close(); });

/** kubectl create -f - (server-side dry run unless `persist`): its stderr. */
const refused = async (yaml: string, persist = false): Promise<string> => {
  const r = await s.kubectlWithInput(yaml, 'create', '-f', '-', ...(persist ? [] : ['--dry-run=server']));
  expect(r.code, r.stdout).not.toBe(0);
  return r.stderr.trim();
};

const container = '[{name: c, image: nginx}]';
const deployment = (spec: string, template = `{metadata: {labels: {app: d}}, spec: {containers: ${container}}}`) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {selector: {matchLabels: {app: d}}, template: ${template}, ${spec}}\n`;
const job = (spec: string, podSpec = `restartPolicy: Never, containers: ${container}`) =>
  `apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {template: {spec: {${podSpec}}}, ${spec}}\n`;
const cronJob = (spec: string, podSpec = `restartPolicy: OnFailure, containers: ${container}`) =>
  `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec: {jobTemplate: {spec: {template: {spec: {${podSpec}}}}}, ${spec}}\n`;
const service = (spec: string, name = 'svc') => `apiVersion: v1\nkind: Service\nmetadata: {name: ${name}}\nspec: {${spec}}\n`;

describe('workload validation', () => {
  it('refuses bad Deployments with upstream\'s messages', async () => {
    expect(await refused(deployment('replicas: -1'))).toBe('The Deployment "d" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect(await refused(deployment('strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}')))
      .toBe('The Deployment "d" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'');
    expect(await refused(deployment('strategy: {type: Foo}')))
      .toBe('The Deployment "d" is invalid: spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Foo", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"');
    expect(await refused(deployment('strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: "0%"}}')))
      .toBe('The Deployment "d" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0');
    expect(await refused(deployment('strategy: {rollingUpdate: {maxUnavailable: "120%"}}')))
      .toBe('The Deployment "d" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%');
    expect(await refused(deployment('progressDeadlineSeconds: 10, minReadySeconds: 10')))
      .toBe('The Deployment "d" is invalid: spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds');
    expect(await refused(deployment('replicas: 1', `{metadata: {labels: {app: d}}, spec: {restartPolicy: Never, containers: ${container}}}`)))
      .toBe('The Deployment "d" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"');
    expect(await refused(deployment('replicas: 1', `{metadata: {labels: {app: d}}, spec: {activeDeadlineSeconds: 5, containers: ${container}}}`)))
      .toBe('The Deployment "d" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported');
    expect(await refused(deployment('replicas: 1', `{metadata: {labels: {app: d}, annotations: {"bad key": x}}, spec: {containers: ${container}}}`)))
      .toContain('spec.template.annotations: Invalid value: "bad key": name part must consist of alphanumeric characters');
    // no template is Go's empty one (defaulted): refused for what it lacks inside, never as 'spec.template: Required value'
    expect(await refused('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {selector: {matchLabels: {app: d}}}\n')).toBe('The Deployment "d" is invalid: \n'
      + '* spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`\n'
      + '* spec.template.spec.containers: Required value');
  });

  it('refuses bad Jobs and CronJobs with upstream\'s messages', async () => {
    expect(await refused(job('parallelism: 1', `containers: ${container}`)))
      .toBe('The Job "j" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
    expect(await refused(job('backoffLimit: -1'))).toBe('The Job "j" is invalid: spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0');
    expect(await refused(job('completionMode: Foo'))).toBe('The Job "j" is invalid: spec.completionMode: Unsupported value: "Foo": supported values: "NonIndexed", "Indexed"');
    expect(await refused(job('backoffLimitPerIndex: 1')))
      .toBe('The Job "j" is invalid: spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode');
    expect(await refused(job('podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [0]}}]}', `restartPolicy: OnFailure, containers: ${container}`)))
      .toBe('The Job "j" is invalid: \n* spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator\n'
        + '* spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified');
    expect(await refused(cronJob('schedule: "* * *"'))).toBe('The CronJob "cj" is invalid: spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]');
    expect(await refused(cronJob('schedule: "61 * * * *"'))).toBe('The CronJob "cj" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61');
    expect(await refused(cronJob('schedule: "TZ=UTC * * * * *"')))
      .toBe('The CronJob "cj" is invalid: spec.schedule: Invalid value: "TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
    expect(await refused(cronJob('schedule: "@hourly", timeZone: Mars/Base')))
      .toBe('The CronJob "cj" is invalid: spec.timeZone: Invalid value: "Mars/Base": unknown time zone Mars/Base');
    expect(await refused(cronJob('schedule: "@hourly", concurrencyPolicy: Sometimes')))
      .toBe('The CronJob "cj" is invalid: spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"');
    expect(await refused(cronJob('schedule: "@hourly"', `containers: ${container}`)))
      .toBe('The CronJob "cj" is invalid: spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"');
    expect(await refused(cronJob('schedule: "@every 1h30m", startingDeadlineSeconds: -5')))
      .toBe('The CronJob "cj" is invalid: spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0');
  });

  it('refuses bad Services and ConfigMaps with upstream\'s messages', async () => {
    // targetPort defaults to port: upstream reports both
    expect(await refused(service('ports: [{port: 99999}]')))
      .toBe('The Service "svc" is invalid: \n* spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive\n'
        + '* spec.ports[0].targetPort: Invalid value: 99999: must be between 1 and 65535, inclusive');
    expect(await refused(service('type: Foo, ports: [{port: 80}]')))
      .toBe('The Service "svc" is invalid: spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"');
    expect(await refused(service('ports: [{port: 80}, {port: 81}]')))
      .toBe('The Service "svc" is invalid: \n* spec.ports[0].name: Required value\n* spec.ports[1].name: Required value');
    expect(await refused(service('ports: [{port: 80, targetPort: "Http"}]')))
      .toBe('The Service "svc" is invalid: spec.ports[0].targetPort: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
    expect(await refused(service('ports: [{port: 80, nodePort: 30080}]')))
      .toBe('The Service "svc" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'');
    expect(await refused(service('type: ExternalName')))
      .toBe('The Service "svc" is invalid: spec.externalName: Required value');
    expect(await refused(service('clusterIP: 10.96.0.300, ports: [{port: 80}]')))
      .toBe('The Service "svc" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
    expect(await refused(service('sessionAffinity: Sticky, ports: [{port: 80}]')))
      .toBe('The Service "svc" is invalid: spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"');
    expect(await refused(service('externalIPs: [127.0.0.1], ports: [{port: 80}]')))
      .toBe('The Service "svc" is invalid: spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)');
    expect(await refused('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {"bad key": x}\n'))
      .toBe('The ConfigMap "cm" is invalid: data[bad key]: Invalid value: "bad key": a valid config key must consist of alphanumeric characters, \'-\', \'_\' or \'.\' '
        + "(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
    expect(await refused('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata: {a: x}\nbinaryData: {a: eA==}\n'))
      .toBe('The ConfigMap "cm" is invalid: data[a]: Invalid value: "a": duplicate of key present in binaryData');
    expect(await refused('apiVersion: v1\nkind: Secret\nmetadata: {name: tls}\ntype: kubernetes.io/tls\ndata: {tls.crt: eA==}\n'))
      .toBe('The Secret "tls" is invalid: data[tls.key]: Required value');
    expect(await refused('apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: pvc}\nspec: {resources: {requests: {storage: 1Gi}}}\n'))
      .toBe('The PersistentVolumeClaim "pvc" is invalid: spec.accessModes: Required value: at least 1 access mode is required');
  });

  it('takes what kubectl\'s generators make', async () => {
    expect(await cleanStdout(s.kubectl('create', 'deployment', 'web', '--image=nginx', '--replicas=2'))).toContain('deployment.apps/web created');
    expect(await cleanStdout(s.kubectl('create', 'job', 'once', '--image=busybox'))).toContain('job.batch/once created');
    expect(await cleanStdout(s.kubectl('create', 'cronjob', 'tick', '--image=busybox', '--schedule=*/5 * * * *'))).toContain('cronjob.batch/tick created');
    expect(await cleanStdout(s.kubectl('create', 'service', 'clusterip', 'web', '--tcp=80:8080', '--tcp=443:8443'))).toContain('service/web created');
    expect(await cleanStdout(s.kubectl('create', 'service', 'nodeport', 'np', '--tcp=80:8080'))).toContain('service/np created');
    expect(await cleanStdout(s.kubectl('create', 'configmap', 'cfg', '--from-literal=key.name=1', '--from-literal=KEY_NAME=2'))).toContain('configmap/cfg created');
    expect(await cleanStdout(s.kubectl('create', 'secret', 'generic', 'sec', '--from-literal=a=b'))).toContain('secret/sec created');
    // updates through kubectl go through the same rules
    expect(await cleanStdout(s.kubectl('scale', 'deployment', 'web', '--replicas=3'))).toContain('scaled');
    const bad = await s.kubectl('patch', 'deployment', 'web', '-p', '{"spec":{"minReadySeconds":-1}}');
    expect(bad.stderr).toContain('spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0');
    const immutable = await s.kubectl('patch', 'job', 'once', '-p', '{"spec":{"completions":5}}');
    expect(immutable.stderr).toContain('spec.completions: Invalid value: 5: field is immutable');
    // a type change drops what the old type needed, and ports stay valid
    expect(await cleanStdout(s.kubectl('patch', 'service', 'np', '-p', '{"spec":{"type":"ClusterIP"}}'))).toContain('patched');
    const np = JSON.parse(await cleanStdout(s.kubectl('get', 'service', 'np', '-o', 'json')));
    expect(np.spec.ports[0].nodePort).toBeUndefined();
    expect(np.spec.externalTrafficPolicy).toBeUndefined();
    // ClusterIP to NodePort: node ports taken
    expect(await cleanStdout(s.kubectl('patch', 'service', 'web', '-p', '{"spec":{"type":"NodePort"}}'))).toContain('patched');
    const web = JSON.parse(await cleanStdout(s.kubectl('get', 'service', 'web', '-o', 'json')));
    expect(web.spec.ports.map((p: { nodePort?: number }) => p.nodePort).every((p: number | undefined) => p && p >= 30000 && p <= 32767)).toBe(true);
    expect(web.spec.externalTrafficPolicy).toBe('Cluster');
    // ExternalName gives up the cluster IP and what only a cluster IP needs; ClusterIP again takes one
    expect(await cleanStdout(s.kubectl('patch', 'service', 'np', '--type=merge', '-p', '{"spec":{"type":"ExternalName","externalName":"example.com"}}'))).toContain('patched');
    const ext = JSON.parse(await cleanStdout(s.kubectl('get', 'service', 'np', '-o', 'json')));
    expect(ext.spec).not.toHaveProperty('clusterIP');
    expect(ext.spec).not.toHaveProperty('internalTrafficPolicy');
    expect(await cleanStdout(s.kubectl('patch', 'service', 'np', '--type=merge', '-p', '{"spec":{"type":"ClusterIP","externalName":null}}'))).toContain('patched');
    const back = JSON.parse(await cleanStdout(s.kubectl('get', 'service', 'np', '-o', 'json')));
    expect(back.spec).toMatchObject({ clusterIP: expect.stringMatching(/^10\.96\.0\.\d$/), internalTrafficPolicy: 'Cluster', ipFamilies: ['IPv4'] });
  });

  it('leaves no cluster IP allocated for a refused Service', async () => {
    // a /29 has 6 addresses; fill all but one, refuse a Service that asks for the last, then take it
    const taken: string[] = [];
    for (let i = 0; ; i++) {
      const r = await s.kubectlWithInput(service('ports: [{port: 80}]', `fill-${i}`), 'create', '-f', '-');
      if (r.code !== 0) break;
      taken.push(i.toString());
    }
    await cleanStdout(s.kubectl('delete', 'service', `fill-0`));
    const used = (await s.api('GET', '/api/v1/services')).body.items.map((x: any) => x.spec.clusterIP);
    const last = ['10.96.0.1', '10.96.0.2', '10.96.0.3', '10.96.0.4', '10.96.0.5', '10.96.0.6'].find((ip) => !used.includes(ip))!;
    expect(last).toBeTruthy();
    const stderr = await refused(service(`clusterIP: ${last}, ports: [{port: 99999, targetPort: 80}]`, 'bad'), true);
    expect(stderr).toBe('The Service "bad" is invalid: spec.ports[0].port: Invalid value: 99999: must be between 1 and 65535, inclusive');
    const typeless = await refused(service(`type: Foo, clusterIP: ${last}, ports: [{port: 80}]`, 'bad'), true);
    expect(typeless).toContain('spec.type: Unsupported value: "Foo"');
    expect(await cleanStdout(s.kubectlWithInput(service(`clusterIP: ${last}, ports: [{port: 80}]`, 'good'), 'create', '-f', '-'))).toContain('service/good created');
  });
});
