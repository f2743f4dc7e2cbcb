// Short names for the definitions core/v1 defines and references.
import type { GroupVersionKind } from '../../schema.js';

/** A definition of core/v1: core('PodSpec') is 'io.k8s.api.core.v1.PodSpec'. */
export const core = (name: string): string => `io.k8s.api.core.v1.${name}`;
/** A definition of authentication.k8s.io/v1 (only TokenRequest and its parts live here). */
export const authn = (name: string): string => `io.k8s.api.authentication.v1.${name}`;
/** A definition of meta/v1 (defined in api/meta/v1). */
export const meta = (name: string): string => `io.k8s.apimachinery.pkg.apis.meta.v1.${name}`;
export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

/** The group-version-kind of a core/v1 kind. */
export const v1 = (kind: string): GroupVersionKind => ({ group: '', version: 'v1', kind });
/** The group-version-kind of an authentication.k8s.io/v1 kind. */
export const authnKind = (kind: string): GroupVersionKind => ({ group: 'authentication.k8s.io', version: 'v1', kind });
