// Where a webhook (admission or conversion) is called, as upstream's webhook client manager builds its rest client: a
// URL as configured, a service reference as https://<name>.<namespace>.svc:<port><path> (net.JoinHostPort, port 443
// when none is given), resolved to an endpoint only as the connection is made.

export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
}

/** The URL the call is made to, and its host as Go's url.URL prints it: as configured, where WHATWG URLs drop :443. */
export interface WebhookUrl {
  u: URL;
  host: string;
}

/** Undefined for a configuration with neither a URL nor a service. */
export function webhookUrl(cc: WebhookClientConfig): WebhookUrl | undefined {
  if (cc.url) {
    const u = new URL(cc.url);
    return { u, host: /^[a-z]+:\/\/([^/?#]*)/i.exec(cc.url)?.[1] ?? u.host };
  }
  const ref = cc.service;
  if (!ref) return undefined;
  const host = `${ref.name}.${ref.namespace}.svc:${ref.port ?? 443}`;
  return { u: new URL(`https://${host}${ref.path ?? ''}`), host };
}

/** The URL as client-go's errors quote it (`Post "<url>": ...`). */
export const printedUrl = (w: WebhookUrl): string => `${w.u.protocol}//${w.host}${w.u.pathname}${w.u.search}`;
