import { describe, expect, it } from 'vitest';
import { imageArgv, imageUser, SIMULATED_USER, type ImageCatalog } from './image-catalog.js';

const catalog: ImageCatalog = { busybox: { cmd: ['sh'] }, nginx: { builtin: 'nginx' }, tool: { entrypoint: ['/bin/tool'], cmd: ['serve'] } };
const program = (name: string): string[] => ['node', `<${name}>`, '--'];
const argv = (image: string, c: { command?: string[]; args?: string[] }): string[] => imageArgv(catalog, image, c, program);

describe('imageArgv: containerd\'s rule, command replaces ENTRYPOINT (and drops CMD), args replace CMD', () => {
  it('runs a catalog image\'s entrypoint and cmd, its args after the entrypoint, its command alone', () => {
    expect(argv('tool', {})).toEqual(['/bin/tool', 'serve']);
    expect(argv('tool', { args: ['--v=2'] })).toEqual(['/bin/tool', '--v=2']);
    expect(argv('tool', { command: ['/bin/other'] })).toEqual(['/bin/other']);
    expect(argv('tool', { command: ['/bin/other'], args: ['x'] })).toEqual(['/bin/other', 'x']);
    expect(argv('busybox', { args: ['echo', 'hi'] })).toEqual(['echo', 'hi']);
    expect(argv('nginx', {})).toEqual(['node', '<nginx>', '--']);
  });

  it('takes empty command and args for none, as a CRI runtime does (len 0)', () => {
    expect(argv('tool', { command: [], args: [] })).toEqual(['/bin/tool', 'serve']);
  });

  it('idles for an image outside the catalog (its ENTRYPOINT unknown), its args given to the idle program, unless it has a command', () => {
    expect(argv('quay.io/prometheus-operator/prometheus-operator:v0.80.0', {})).toEqual(['node', '<pause>', '--']);
    expect(argv('quay.io/prometheus-operator/prometheus-operator:v0.80.0', { args: ['--kubelet-service=kube-system/kubelet'] }))
      .toEqual(['node', '<pause>', '--', '--kubelet-service=kube-system/kubelet']);
    expect(argv('example.com/tool:2', { command: ['sh', '-c', 'echo hi'] })).toEqual(['sh', '-c', 'echo hi']);
    expect(argv('example.com/tool:2', { command: ['sh'], args: ['-c', 'echo hi'] })).toEqual(['sh', '-c', 'echo hi']);
  });

  it('has no command when a catalog image has neither entrypoint nor cmd and the container neither', () => {
    expect(() => imageArgv({ empty: {} }, 'empty', {}, program)).toThrow('no command specified');
  });
});

describe('imageUser', () => {
  it('is root for a catalog image unless it names a user, the non-root 65532 for a simulated one', () => {
    expect(imageUser(catalog, 'busybox:1.36')).toBeUndefined();
    expect(imageUser({ distroless: { cmd: ['x'], user: 65532 } }, 'distroless')).toEqual({ uid: 65532, gid: 65532 });
    expect(imageUser(catalog, 'quay.io/jetstack/cert-manager-controller:v1.17.0')).toEqual({ uid: SIMULATED_USER, gid: SIMULATED_USER });
    expect(SIMULATED_USER).toBe(65532);
  });
});
