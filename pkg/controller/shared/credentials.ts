// Per-controller credentials (upstream --use-service-account-credentials, clientbuilder.SAControllerClientBuilder):
// each controller gets the ServiceAccount kube-system/<name> (created if missing) and a client holding a bound
// token from the TokenRequest API, refreshed at 80% of its life, so RBAC sees system:serviceaccount:kube-system:<name>
// and the bootstrap roles system:controller:<name> apply.
import type { Logger } from 'pino';
import {
  Client, isAlreadyExists, isNotFound, realClock, type Clock, type RestConfig, type TimerHandle,
} from '../../client/index.js';

const TOKEN_SECONDS = 3600;
const NAMESPACE = 'kube-system';

interface TokenRequestStatus { status?: { token?: string; expirationTimestamp?: string } }

export class ServiceAccountClientBuilder {
  private readonly timers = new Set<TimerHandle>();
  /** One client per ServiceAccount: controllers that share an account (node-controller's three) share its token. */
  private readonly clients = new Map<string, Promise<Client>>();

  constructor(
    private readonly root: Client,
    private readonly base: RestConfig,
    private readonly logger: Logger,
    private readonly clock: Clock = realClock,
  ) {}

  /** A client authenticated as kube-system/<serviceAccount>; retries until it has a token or the signal aborts. */
  client(serviceAccount: string, signal: AbortSignal): Promise<Client> {
    let client = this.clients.get(serviceAccount);
    if (!client) this.clients.set(serviceAccount, (client = this.newClient(serviceAccount, signal)));
    return client;
  }

  private async newClient(serviceAccount: string, signal: AbortSignal): Promise<Client> {
    const { certData: _c, keyData: _k, bearerTokenFile: _f, username: _u, password: _p, ...rest } = this.base;
    const config: RestConfig = { ...rest, userAgent: `${this.base.userAgent ?? 'kube-controller-manager'}/${serviceAccount}` };
    let delay = 500;
    for (;;) {
      try {
        const lifetimeMs = await this.refresh(serviceAccount, config, signal);
        this.schedule(serviceAccount, config, lifetimeMs * 0.8, signal);
        return new Client(config);
      } catch (err) {
        if (signal.aborted) throw err;
        this.logger.warn({ err, serviceAccount }, 'cannot get service-account credentials; retrying');
        await this.clock.sleep(delay, signal);
        delay = Math.min(delay * 2, 30_000);
      }
    }
  }

  stop(): void {
    for (const t of this.timers) t.cancel();
    this.timers.clear();
    this.clients.clear();
  }

  private schedule(serviceAccount: string, config: RestConfig, ms: number, signal: AbortSignal): void {
    const t = this.clock.setTimer(() => {
      this.timers.delete(t);
      if (signal.aborted) return;
      this.refresh(serviceAccount, config, signal).then(
        (lifetimeMs) => this.schedule(serviceAccount, config, lifetimeMs * 0.8, signal),
        (err: unknown) => {
          this.logger.warn({ err, serviceAccount }, 'token refresh failed; retrying in 10s');
          this.schedule(serviceAccount, config, 10_000, signal);
        },
      );
    }, Math.max(1000, ms));
    this.timers.add(t);
  }

  /** Ensures the ServiceAccount, requests a token into config.bearerToken; returns the token's lifetime in ms. */
  private async refresh(serviceAccount: string, config: RestConfig, signal: AbortSignal): Promise<number> {
    const accounts = this.root.serviceAccounts(NAMESPACE);
    try {
      await accounts.get(serviceAccount, { signal });
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await accounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: serviceAccount, namespace: NAMESPACE } }, { signal })
        .catch((err: unknown) => { if (!isAlreadyExists(err)) throw err; });
    }
    const res = await accounts.createSubresource<TokenRequestStatus>(serviceAccount, 'token', {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: TOKEN_SECONDS },
    }, { signal });
    const token = res.status?.token;
    if (!token) throw new Error(`TokenRequest for ${NAMESPACE}/${serviceAccount} returned no token`);
    config.bearerToken = token; // the RestClient reads its config per request: the new token applies at once
    const expires = res.status?.expirationTimestamp ? Date.parse(res.status.expirationTimestamp) : NaN;
    return Number.isFinite(expires) ? Math.max(10_000, expires - this.clock.now()) : TOKEN_SECONDS * 1000;
  }
}
