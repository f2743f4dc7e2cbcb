// Names shared by the networking/v1 definition files.
import { ref, type Schema } from '../../schema.js';

export const N = 'io.k8s.api.networking.v1.';
export const gvk = (kind: string) => ({ group: 'networking.k8s.io', version: 'v1', kind });
export const labelSelector = (description: string): Schema => ref('io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector', description);
export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
