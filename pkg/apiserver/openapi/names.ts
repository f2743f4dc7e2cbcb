// Operation ids and tags as upstream's route builder derives them from the path: "/api" counts as group
// "core", a trailing ".k8s.io" is dropped, and the rest is camel-cased ("rbac.authorization" -> RbacAuthorization).

/** Upstream's ToValidOperationID: keep letters, '_' and non-leading digits; anything else starts a new word. */
export const toValidOperationId = (s: string, capitalizeFirst: boolean): string => {
  let out = '';
  let capitalize = capitalizeFirst;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (/\p{L}/u.test(c) || c === '_' || (i !== 0 && /\d/.test(c))) {
      out += capitalize ? c.toUpperCase() : c;
      capitalize = false;
    } else {
      capitalize = true;
    }
  }
  return out;
};

const groupWord = (group: string): string => (group === '' ? 'core' : group.replace(/\.k8s\.io$/, ''));

/** "CoreV1", "AppsV1", "RbacAuthorizationV1", "StableExampleComV1beta1": sits between the verb and the rest. */
export const operationInfix = (group: string, version: string): string =>
  toValidOperationId(groupWord(group), true) + toValidOperationId(version, true);

/** "core_v1", "apps_v1", "rbacAuthorization_v1". */
export const versionTag = (group: string, version: string): string =>
  `${toValidOperationId(groupWord(group), false)}_${toValidOperationId(version, false)}`;

/** "core", "apps", "rbacAuthorization": the tag of the group-level documents. */
export const groupTag = (group: string): string => toValidOperationId(groupWord(group), false);

/** "AppsAPIGroup" is built from this: "Apps", "RbacAuthorization". */
export const groupInfix = (group: string): string => toValidOperationId(groupWord(group), true);

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** "Status", "Scale", "Portforward": the subresource as it ends an operation id. */
export const subresourceWord = (name: string): string => toValidOperationId(capitalize(name), true);
