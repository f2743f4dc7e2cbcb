// Names shared by the storage/v1 definition files.
export const S = 'io.k8s.api.storage.v1.';
export const gvk = (kind: string) => ({ group: 'storage.k8s.io', version: 'v1', kind });
