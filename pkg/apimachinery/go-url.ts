// Paths as Go's net/url writes them.

/** A decoded path as Go's URL.EscapedPath writes it: all but unreserved characters and `$&+,/:;=@` percent-escaped. */
export const escapeGoPath = (p: string): string =>
  encodeURIComponent(p).replace(/%(2[46BCF]|3[ABD]|40)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
