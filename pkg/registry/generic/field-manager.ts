// Managed fields: who set what. Every write records its manager's fields (operation Update);
// server-side apply merges an applied configuration and reports conflicts (operation Apply).
import type { KubeObject } from '../../../api/types.js';
import type { RequestContext } from '../context.js';

export interface FieldManager {
  /** Records in next.metadata.managedFields the fields ctx.fieldManager changed from `old`. */
  update(old: KubeObject | undefined, next: KubeObject, ctx: RequestContext, subresource?: string, hasStatus?: boolean): void;
  /**
   * The live object with the applied configuration merged in, managedFields updated; 409 on conflicts unless force.
   * Through /status only status is applied (and the manager's entry names the subresource); nor is any field of
   * `statusKeeps` (the metadata the status strategy keeps as stored) owned then.
   */
  apply(live: KubeObject | undefined, applied: KubeObject, ctx: RequestContext, force: boolean, hasStatus?: boolean, subresource?: string, statusKeeps?: readonly string[]): KubeObject;
}
