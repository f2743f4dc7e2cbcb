// What the token-review and subject-access-review webhooks share: the webhook's kubeconfig turned into an HTTPS
// client (undici) that POSTs one review and returns the answer (upstream: apiserver/pkg/util/webhook's GenericWebhook).
import { undici } from '../apimachinery/undici.js';
import { loadKubeconfig } from '../client/kubeconfig.js';

export interface WebhookClient {
  /** POSTs a review object; resolves with the parsed answer, rejects on transport errors and non-2xx answers. */
  post(review: unknown): Promise<unknown>;
  close(): Promise<void>;
}

export const webhookClient = async (kubeconfigFile: string, what: string, timeoutMs = 30_000): Promise<WebhookClient> => {
  const cfg = await loadKubeconfig(kubeconfigFile);
  const { Agent, request } = await undici();
  const agent = new Agent({
    connect: {
      ...(cfg.caData ? { ca: cfg.caData } : {}),
      ...(cfg.certData && cfg.keyData ? { cert: cfg.certData, key: cfg.keyData } : {}),
      ...(cfg.insecureSkipTLSVerify ? { rejectUnauthorized: false } : {}),
      ...(cfg.tlsServerName ? { servername: cfg.tlsServerName } : {}),
    },
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (cfg.bearerToken) headers.authorization = `Bearer ${cfg.bearerToken}`;
  return {
    close: () => agent.close(),
    async post(review) {
      const res = await request(cfg.host, {
        method: 'POST', dispatcher: agent, headers, body: JSON.stringify(review), headersTimeout: timeoutMs, bodyTimeout: timeoutMs,
      });
      const text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) throw new Error(`the ${what} webhook answered ${res.statusCode}`);
      return JSON.parse(text) as unknown;
    },
  };
};
