// Admission: every mutating plugin runs, then every validating one (upstream: apiserver/pkg/admission).
// Plugins see objects, never HTTP; they get what they need to look up through injected getters.
import type { KubeObject, ResourceType } from '../../api/types.js';
import type { Deadline } from '../apimachinery/deadline.js';
import type { UserInfo } from '../authentication/interface.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionAttributes {
  operation: Operation;
  resource: ResourceType;
  subresource?: string;
  namespace?: string;
  name: string;
  /** The object after the change (CREATE, UPDATE); mutating plugins change it in place. */
  object?: KubeObject;
  oldObject?: KubeObject;
  user?: UserInfo;
  dryRun: boolean;
  /** The request's warnings (the `Warning` response header); plugins push onto it. */
  warnings?: string[];
  /**
   * The request's audit annotations; plugins add upstream's keys with `addAuditAnnotation` (a key already set keeps
   * its first value, as upstream's AddAnnotation refuses to overwrite).
   */
  auditAnnotations?: Record<string, string>;
  /** The request's deadline: a webhook is called with what is left of it, and cancelled when it passes. */
  deadline?: Deadline;
  /**
   * The fields of the operation's options as the client sent them (CreateOptions, UpdateOptions, DeleteOptions), what
   * webhooks and policies see in `request.options`; none for the apiserver's own writes and for CONNECT.
   */
  options?: object;
}

export function addAuditAnnotation(a: AdmissionAttributes, key: string, value: string): void {
  if (a.auditAnnotations && !Object.hasOwn(a.auditAnnotations, key)) a.auditAnnotations[key] = value;
}

/**
 * Upstream's Handles(CONNECT): exec, attach, port-forward and proxy requests reach only the plugins that say so (the
 * webhooks, ValidatingAdmissionPolicy, AlwaysAdmit and AlwaysDeny); every other plugin sees writes alone.
 */
interface ConnectAware {
  readonly handlesConnect?: boolean;
}

export interface MutatingPlugin extends ConnectAware {
  readonly name: string;
  admit(attrs: AdmissionAttributes): Promise<void> | void;
}

export interface ValidatingPlugin extends ConnectAware {
  readonly name: string;
  validate(attrs: AdmissionAttributes): Promise<void> | void;
}

export type AdmissionPlugin = MutatingPlugin | ValidatingPlugin | (MutatingPlugin & ValidatingPlugin);

/**
 * A phase answers at once (undefined) when every plugin did, a promise only when one had to wait: every write
 * passes both phases, and an async function's promise and its awaits were a tenth of a create's cost.
 */
export interface Admission {
  mutate(attrs: AdmissionAttributes): Promise<void> | void;
  validate(attrs: AdmissionAttributes): Promise<void> | void;
}
