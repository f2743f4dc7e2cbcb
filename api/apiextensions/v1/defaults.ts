// apiextensions.k8s.io/v1 computed defaults (upstream pkg/apis/apiextensions/v1/defaults.go).
import type { Defaulter } from '../../types.js';
import { X } from './definitions.js';

const crd: Defaulter = (o) => {
  // The first storage version is recorded as stored from the start.
  const status = (o.status ??= {});
  if (!Array.isArray(status.storedVersions) || status.storedVersions.length === 0) {
    const storage = (o.spec?.versions as { name: string; storage?: boolean }[] | undefined)?.find((v) => v.storage);
    if (storage) status.storedVersions = [storage.name];
  }
};

const crdSpec: Defaulter = (o) => {
  const names = o.names as Record<string, unknown> | undefined;
  if (names) {
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && typeof names.kind === 'string' && names.kind) names.listKind = `${names.kind}List`;
  }
  o.conversion ??= { strategy: 'None' };
};

const serviceReference: Defaulter = (o) => {
  o.port ??= 443;
};

export const defaulters: Record<string, Defaulter> = {
  [`${X}CustomResourceDefinition`]: crd,
  [`${X}CustomResourceDefinitionSpec`]: crdSpec,
  [`${X}ServiceReference`]: serviceReference,
};
