import { describe, expect, it } from 'vitest';
import { translatedStatus } from './stream-translator.js';

describe('translatedStatus: the kubelet\'s error channel through client-go\'s v4 decoder and the translator', () => {
  it('keeps success, and an empty error channel is success', () => {
    expect(translatedStatus('{"metadata":{},"status":"Success"}')).toEqual({ metadata: {}, status: 'Success' });
    expect(translatedStatus('')).toEqual({ metadata: {}, status: 'Success' });
  });

  it('rewords an exit code as the executor\'s CodeExitError, with its ExitCode cause', () => {
    const kubelet = JSON.stringify({
      metadata: {}, status: 'Failure', message: 'command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3',
      reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
    expect(JSON.stringify(translatedStatus(kubelet))).toBe(JSON.stringify({
      metadata: {}, status: 'Failure', message: 'command terminated with non-zero exit code: command terminated with exit code 3',
      reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    }));
  });

  it('wraps any other failure in an internal error, its message the cause', () => {
    const kubelet = '{"metadata":{},"status":"Failure","message":"Internal error occurred: error executing command in container: boom","reason":"InternalError","code":500}';
    expect(JSON.stringify(translatedStatus(kubelet))).toBe(JSON.stringify({
      metadata: {}, status: 'Failure', message: 'Internal error occurred: Internal error occurred: error executing command in container: boom',
      reason: 'InternalError', details: { causes: [{ message: 'Internal error occurred: error executing command in container: boom' }] }, code: 500,
    }));
  });

  it('reports what the v4 decoder refuses as protocol errors', () => {
    const exit = (details: unknown): string => JSON.stringify({ status: 'Failure', reason: 'NonZeroExitCode', details });
    expect(translatedStatus(exit(undefined)).message).toBe('Internal error occurred: error stream protocol error: details must be set');
    expect(translatedStatus(exit({ causes: [{ reason: 'Other', message: '1' }] })).message).toBe('Internal error occurred: error stream protocol error: no ExitCode cause given');
    expect(translatedStatus(exit({ causes: [{ reason: 'ExitCode', message: '256' }] })).message).toBe('Internal error occurred: error stream protocol error: invalid exit code value "256"');
    expect(translatedStatus('{"status":"Weird"}').message).toBe('Internal error occurred: error stream protocol error: unknown error');
  });
});
