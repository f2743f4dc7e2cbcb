// Upstream's long-running request check (the watch and proxy verbs; the attach, exec, proxy, log and portforward
// subresources): requests that hold their connection open by design. The in-flight limits, audit's stages and
// graceful shutdown treat them apart.
import type { RequestInfo } from './request-info.js';

const VERBS = new Set(['watch', 'proxy']);
const SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

export const isLongRunning = (i: RequestInfo): boolean => VERBS.has(i.verb) || (i.isResourceRequest && SUBRESOURCES.has(i.subresource));
