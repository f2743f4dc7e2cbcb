// The Kubernetes API review policy for CRDs (upstream: apihelpers' IsProtectedCommunityGroup and
// GetAPIApprovalState, validation.go's validateAPIApproval): a CRD of a *.k8s.io or *.kubernetes.io group needs the
// `api-approved.kubernetes.io` annotation, a URL of the approving pull request or a reason starting "unapproved".
import type { CustomResourceDefinition } from '../../../../api/apiextensions/v1/index.js';
import type { StatusCause } from '../../../apimachinery/errors.js';
import { invalidValue, required } from '../../../apimachinery/field.js';
import { keyPath } from './paths.js';

export const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';

export type APIApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

export const isProtectedCommunityGroup = (group: string | undefined): boolean =>
  group === 'k8s.io' || group === 'kubernetes.io' || Boolean(group?.endsWith('.k8s.io') || group?.endsWith('.kubernetes.io'));

export function apiApprovalState(annotations: Record<string, string> | undefined): { state: APIApprovalState; reason: string } {
  const value = annotations?.[API_APPROVED_ANNOTATION] ?? '';
  if (!value) {
    return { state: 'Missing', reason: `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111` };
  }
  if (value.startsWith('unapproved')) return { state: 'Bypassed', reason: `not approved: ${JSON.stringify(value)}` };
  if (requestURIHost(value)) return { state: 'Approved', reason: `approved in ${value}` };
  return {
    state: 'Invalid',
    reason: `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

// Characters Go's url package refuses in a host (shouldEscape in encodeHost mode); non-ASCII passes.
const HOST_OK = /^(?:[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"\u0080-\uffff]|%25|%[89a-fA-F][0-9a-fA-F])*$/;
const USERINFO_OK = /^[A-Za-z0-9\-_.~!$&'()*+,;=:%@]*$/;

/**
 * Whether Go's url.ParseRequestURI parses `s` with both a scheme and a host, as an approval URL needs: an absolute
 * URL with an authority ("https://github.com/kubernetes/kubernetes/pull/1"), not "github.com/pull/1" nor "https:x".
 */
function requestURIHost(s: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(s)) return false;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(s);
  if (!scheme) return false;
  const rest = s.slice(scheme[0].length).split('?')[0]!;
  if (!rest.startsWith('//') || rest.startsWith('///')) return false;
  const authority = rest.slice(2).split('/')[0]!;
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !USERINFO_OK.test(authority.slice(0, at))) return false;
  const host = authority.slice(at + 1);
  if (!host) return false;
  if (host.startsWith('[')) return /^\[[^\]]*\](?::\d*)?$/.test(host);
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^\d*$/.test(host.slice(colon + 1))) return false;
  return HOST_OK.test(host);
}

/** A protected group's CRD must be approved (or say why not), unless an update leaves its approval state as it was. */
export function validateAPIApproval(crd: CustomResourceDefinition, old?: CustomResourceDefinition): StatusCause[] {
  if (!isProtectedCommunityGroup(crd.spec?.group)) return [];
  const { state, reason } = apiApprovalState(crd.metadata?.annotations);
  if (old && apiApprovalState(old.metadata?.annotations).state === state) return [];
  const path = keyPath('metadata.annotations', API_APPROVED_ANNOTATION);
  if (state === 'Missing') return [required(path, reason)];
  if (state === 'Invalid') return [invalidValue(path, crd.metadata?.annotations?.[API_APPROVED_ANNOTATION] ?? '', reason)];
  return [];
}

/** The KubernetesAPIApprovalPolicyConformant condition of a protected group's CRD (upstream's apiapproval controller). */
export function apiApprovalCondition(crd: CustomResourceDefinition): { type: string; status: 'True' | 'False'; reason: string; message: string } | undefined {
  if (!isProtectedCommunityGroup(crd.spec?.group)) return undefined;
  const { state, reason: message } = apiApprovalState(crd.metadata?.annotations);
  const type = 'KubernetesAPIApprovalPolicyConformant';
  switch (state) {
    case 'Approved': return { type, status: 'True', reason: 'ApprovedAnnotation', message };
    case 'Bypassed': return { type, status: 'False', reason: 'UnapprovedAnnotation', message };
    case 'Missing': return { type, status: 'False', reason: 'MissingAnnotation', message };
    default: return { type, status: 'False', reason: 'InvalidAnnotation', message };
  }
}
