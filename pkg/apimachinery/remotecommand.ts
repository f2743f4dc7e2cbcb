// The Status that ends an exec or attach on its error channel (v4.channel.k8s.io and later), as Go's json.Marshal
// writes the metav1.Status of a StatusError: no kind or apiVersion, fields in the struct's order.

export interface StreamStatus {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: 'InternalError' | 'NonZeroExitCode';
  details?: { causes: { reason?: 'ExitCode'; message: string }[] };
  code?: number;
}

export const successStatus = (): StreamStatus => ({ metadata: {}, status: 'Success' });

/** apierrors.NewInternalError of an error whose text is `message`. */
export const internalErrorStatus = (message: string): StreamStatus => ({
  metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500,
});

/** A command's non-zero exit (remotecommand's NonZeroExitCodeReason, its ExitCode cause); `error` is the exit error's text. */
export const exitCodeStatus = (error: string, code: number): StreamStatus => ({
  metadata: {}, status: 'Failure', message: `command terminated with non-zero exit code: ${error}`, reason: 'NonZeroExitCode',
  details: { causes: [{ reason: 'ExitCode', message: String(code) }] },
});
