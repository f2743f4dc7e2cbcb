// One small interface per authenticator; a union tries them in order (pkg/authentication/union.ts).
import type { X509Certificate } from 'node:crypto';

export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** What an authenticator may look at: never the body, never fastify. */
export interface AuthnRequest {
  headers: Record<string, string | string[] | undefined>;
  /** The verified client certificate chain's leaf, when the TLS peer sent one. */
  peerCertificate?: X509Certificate;
  /** The certificates the peer sent after the leaf (intermediates), if any. */
  peerIntermediates?: X509Certificate[];
}

export interface AuthnResult {
  user: UserInfo;
  /** Headers that carried the credential, removed before the request goes on (Authorization, ...). */
  consumedHeaders?: string[];
  /** Epoch ms after which the credential is no longer valid (a token's exp): no cache keeps the answer longer. */
  expiresAt?: number;
  /**
   * Checks again what may be revoked before the credential expires (a service-account token's account and bound
   * objects); throws a 401 StatusError when it was. A cached answer is trusted only after this passes.
   */
  revalidate?: () => Promise<void>;
}

export interface Authenticator {
  readonly name: string;
  /**
   * null: this credential is not mine (the union asks the next authenticator).
   * Throws a StatusError 401 when the credential is mine but wrong or expired.
   */
  authenticate(req: AuthnRequest): Promise<AuthnResult | null>;
}
