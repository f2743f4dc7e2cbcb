// --allow-privileged=false, kube-apiserver's default: every kind with a pod spec refuses privileged containers and
// Windows host processes with upstream's message, on create and on update; `mini-kube up` (and the test harness)
// allow them, as kubeadm and kind do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApiServer, type TestApiServer } from '../support/apiserver.js';
import { cleanStdout } from '../support/kubectl-run.js';

let s: TestApiServer;
beforeAll(async () => {
  s = await startTestApiServer({ storageBackend: 'memory', authorizationModes: ['AlwaysAllow'], allowPrivileged: false });
});
afterAll(async () => { await s?.close(); });

// an init container may not share a regular container's name (upstream refuses the pod for it)
const container = (privileged: boolean, name = 'c') => `{name: ${name}, image: nginx, securityContext: {privileged: ${privileged}}}`;

describe('--allow-privileged=false', () => {
  it('refuses a privileged pod, init container and Deployment template, and a host-process pod', async () => {
    const pod = await s.kubectlWithInput(`apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  initContainers: [${container(true, 'i')}]\n  containers: [${container(true)}]\n`, 'create', '-f', '-');
    expect(pod.code).not.toBe(0);
    expect(pod.stderr).toContain('The Pod "p" is invalid: \n'
      + '* spec.initContainers[0].securityContext.privileged: Forbidden: disallowed by cluster policy\n'
      + '* spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
    const deploy = await s.kubectl('create', 'deployment', 'd', '--image=nginx', '--dry-run=client', '-o', 'json');
    const d = JSON.parse(deploy.stdout);
    d.spec.template.spec.containers[0].securityContext = { privileged: true };
    const created = await s.kubectlWithInput(JSON.stringify(d), 'create', '-f', '-');
    expect(created.stderr).toContain('The Deployment "d" is invalid: spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
    const windows = await s.kubectlWithInput('apiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec:\n  hostNetwork: true\n  securityContext: {windowsOptions: {hostProcess: true, runAsUserName: "NT AUTHORITY\\\\SYSTEM"}}\n  containers: [{name: c, image: nginx}]\n', 'create', '-f', '-');
    expect(windows.stderr).toContain('spec: Forbidden: hostProcess containers are disallowed by cluster policy');
  });

  it('refuses an update that makes a CronJob\'s template privileged, and takes unprivileged ones', async () => {
    await cleanStdout(s.kubectl('create', 'cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *'));
    const patch = JSON.stringify([{ op: 'add', path: '/spec/jobTemplate/spec/template/spec/containers/0/securityContext', value: { privileged: true } }]);
    const r = await s.kubectl('patch', 'cronjob', 'cj', '--type=json', '-p', patch);
    expect(r.stderr).toContain('spec.jobTemplate.spec.template.spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy');
    await cleanStdout(s.kubectl('label', 'cronjob', 'cj', 'team=a'));
    expect(await cleanStdout(s.kubectlWithInput(`apiVersion: v1\nkind: Pod\nmetadata: {name: fine}\nspec:\n  containers: [${container(false)}]\n`, 'create', '-f', '-'))).toContain('pod/fine created');
  });
});
