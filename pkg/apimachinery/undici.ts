// undici, loaded on first use. Evaluating it costs a start tens of milliseconds (its HTTP parser is compiled
// then), and the apiserver only calls out when a webhook, kubelet, OIDC issuer or aggregated server is asked.
export type Undici = typeof import('undici');

let loading: Promise<Undici> | undefined;

export const undici = (): Promise<Undici> => (loading ??= import('undici'));
