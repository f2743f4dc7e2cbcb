// The zlib dictionary SPDY/3 compresses header blocks with (SPDY Protocol draft 3, section 2.6.10.1): 65 strings
// each prefixed with its 32-bit big-endian length, then a run of common values.
const WORDS = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset', 'accept-encoding',
  'accept-language', 'accept-ranges', 'age', 'allow', 'authorization', 'cache-control', 'connection',
  'content-base', 'content-encoding', 'content-language', 'content-length', 'content-location', 'content-md5',
  'content-range', 'content-type', 'date', 'etag', 'expect', 'expires', 'from', 'host', 'if-match',
  'if-modified-since', 'if-none-match', 'if-range', 'if-unmodified-since', 'last-modified', 'location',
  'max-forwards', 'pragma', 'proxy-authenticate', 'proxy-authorization', 'range', 'referer', 'retry-after',
  'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent', 'vary', 'via', 'warning',
  'www-authenticate', 'method', 'get', 'status', '200 OK', 'version', 'HTTP/1.1', 'url', 'public',
  'set-cookie', 'keep-alive', 'origin',
];
const TAIL = [
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505203 Non-Au',
  'thoritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthorized403 Forbidd',
  'en404 Not Found500 Internal Server Error501 Not Implemented503 Service UnavailableJan Feb Mar Apr Ma',
  'y Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMTchunked,text/html,imag',
  'e/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,text/javascript,publicpri',
  'vatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.',
].join('');

export const SPDY3_DICTIONARY: Buffer = Buffer.concat([
  ...WORDS.map((w) => { const b = Buffer.alloc(4 + w.length); b.writeUInt32BE(w.length, 0); b.write(w, 4, 'latin1'); return b; }),
  Buffer.from(TAIL, 'latin1'),
]);
