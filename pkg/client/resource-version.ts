// resourceVersions are opaque to clients, but a controller that wrote an object may need to tell whether its cache
// still shows an older state than its own write (so as not to act on it). This apiserver's are decimal revisions, as
// etcd's are; anything else compares as "not older".

/** a < b for decimal resourceVersions; false when either is not one. */
export const resourceVersionOlder = (a: string | undefined, b: string | undefined): boolean =>
  !!a && !!b && /^\d+$/.test(a) && /^\d+$/.test(b) && (a.length !== b.length ? a.length < b.length : a < b);
