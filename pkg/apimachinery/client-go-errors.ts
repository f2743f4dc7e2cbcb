// How client-go's rest client words a failed response (a webhook's, a conversion webhook's): the apiserver quotes
// these when it calls out, so clients see upstream's texts.

/** client-go's NewGenericServerResponse message for a status code, given the body's text (`server`). */
function genericServerResponse(code: number, server: string): string {
  switch (code) {
    case 400: return 'the server rejected our request for an unknown reason';
    case 401: return 'the server has asked for the client to provide credentials';
    case 403: case 415: return server;
    case 404: return 'the server could not find the requested resource';
    case 405: return 'the server does not allow this method on the requested resource';
    case 406: return server && server !== 'unknown' ? server : 'the server was unable to respond with a content type that the client supports';
    case 409: return 'the server reported a conflict';
    case 422: return 'the server rejected our request due to an error in our request';
    case 429: return 'the server has received too many requests and has asked us to try again later';
    case 503: return 'the server is currently unable to handle the request';
    case 504: return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default:
      return code >= 500 ? `an error on the server (${JSON.stringify(server)}) has prevented the request from succeeding`
        : `the server responded with the status code ${code} but did not return more information`;
  }
}

/**
 * A non-2xx answer as client-go's rest client reports it: a JSON Status of a failure by its message, else the
 * generic message for the code, quoting a text body (at most 2048 bytes, trimmed; "unknown" for any other body).
 */
export function responseError(code: number, contentType: string | undefined, text: string): string {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (media === '' || media === 'application/json' || media.endsWith('+json')) {
    try {
      const status = JSON.parse(text) as Record<string, unknown>;
      if (status?.kind === 'Status' && status.status === 'Failure') return typeof status.message === 'string' ? status.message : '';
    } catch { /* not a Status: the generic message */ }
  }
  const server = media === '' || media.startsWith('text/') ? Buffer.from(text).subarray(0, 2048).toString().trim() : 'unknown';
  return genericServerResponse(code, server);
}
