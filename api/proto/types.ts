// The shape of the protobuf field tables in this folder.

/**
 * One field of a message: the JSON name of the property it fills, or an embedded struct that Go
 * inlines into the enclosing JSON object (`Volume.volumeSource`, `Probe.handler`): its fields land
 * in the parent's properties.
 *
 * A name ending in `*` keeps a zero value read from the wire ("", 0, false): the Go field is a
 * pointer (present on the wire only when set) or has no `omitempty` (Go's JSON always writes it).
 * Without the mark a zero scalar is omitted, as Go's JSON encoding of the same struct omits it.
 */
export type ProtoField = string | { inline: string };

/** A message's fields by field number. */
export type ProtoMessage = Record<number, ProtoField>;

/** Messages by definition name (`io.k8s.api.core.v1.PodSpec`). */
export type ProtoFields = Record<string, ProtoMessage>;
