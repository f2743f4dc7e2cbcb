// Programs the process runtime ships as "images" (config/images.json): written once as plain JavaScript files under
// the root dir and run with this Node binary. `pause` waits for a signal; `nginx` is a tiny static HTTP server that
// logs each request as nginx does (port $NGINX_PORT, else 80, else any free port when 80 cannot be had), serving
// $NGINX_ROOT, else /usr/share/nginx/html as the image does (where a volume is mounted there), else its working dir,
// with the nginx welcome page for an index.html it lacks.
// TOOLS are on every container's PATH after the host's own directories (a host that has the command wins), since a
// container runs the host's programs: `nslookup`, as bind's prints it, for the DNS checks of Kubernetes' "Debugging
// DNS Resolution" (`kubectl exec dnsutils -- nslookup kubernetes.default`) on hosts without one.

export const TOOLS = ['nslookup'];

export const BUILTINS: Record<string, string> = {
  pause: `
const stop = () => process.exit(0);
process.on('SIGTERM', stop); process.on('SIGINT', stop);
setInterval(() => {}, 1 << 30);
`,
  nginx: `
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
const root = process.env.NGINX_ROOT || (existsSync('/usr/share/nginx/html') ? '/usr/share/nginx/html' : process.cwd());
const page = '<!DOCTYPE html>\\n<html>\\n<head>\\n<title>Welcome to nginx!</title>\\n</head>\\n<body>\\n<h1>Welcome to nginx!</h1>\\n<p>If you see this page, the nginx web server is successfully installed and working.</p>\\n</body>\\n</html>\\n';
const server = createServer(async (req, res) => {
  let status = 200; let body = page;
  const path = normalize(decodeURIComponent((req.url || '/').split('?')[0])).replace(/^(\\.\\.[\\/\\\\])+/, '');
  const file = path === '/' ? '/index.html' : path;
  try { body = await readFile(join(root, file)); } catch {
    if (file !== '/index.html') { status = 404; body = '<html><body><h1>404 Not Found</h1></body></html>\\n'; }
  }
  res.writeHead(status, { 'content-type': 'text/html', server: 'nginx/1.27.0 (mini-kube)' });
  res.end(body);
  const size = Buffer.byteLength(body);
  const t = new Date().toUTCString();
  process.stdout.write(req.socket.remoteAddress + ' - - [' + t + '] "' + req.method + ' ' + req.url + ' HTTP/' + req.httpVersion + '" ' + status + ' ' + size + ' "-" "' + (req.headers['user-agent'] || '-') + '"\\n');
});
const listen = (port) => server.listen(port);
server.once('listening', () => console.error('nginx: listening on port ' + server.address().port));
server.on('error', (e) => {
  if ((e.code === 'EACCES' || e.code === 'EADDRINUSE') && !process.env.NGINX_PORT) { server.removeAllListeners('error'); listen(0); return; }
  console.error('nginx: [emerg] ' + e.message); process.exit(1);
});
listen(Number(process.env.NGINX_PORT || 80));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop); process.on('SIGQUIT', stop);
`,
  nslookup: `
import { Resolver } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
let type = 'A';
const names = [];
for (const a of process.argv.slice(2)) {
  const m = /^-(?:type|query|querytype|q|t)=(\\w+)$/i.exec(a);
  if (m) type = m[1].toUpperCase(); else if (!a.startsWith('-')) names.push(a);
}
const [name, server] = names;
async function main() {
  if (!name) { process.stderr.write('Usage: nslookup [-type=A|AAAA|CNAME|MX|NS|PTR|SOA|SRV|TXT] NAME [SERVER]\\n'); return 1; }
  let conf = '';
  try { conf = readFileSync('/etc/resolv.conf', 'utf8'); } catch {}
  const ns = server ?? /^nameserver\\s+(\\S+)/m.exec(conf)?.[1] ?? '127.0.0.1';
  const search = (/^search\\s+(.+)$/m.exec(conf)?.[1] ?? '').trim().split(/\\s+/).filter(Boolean);
  const ndots = Number(/ndots:(\\d+)/.exec(conf)?.[1] ?? 1);
  const r = new Resolver({ timeout: 2000, tries: 2 });
  r.setServers([ns]);
  const out = (line) => process.stdout.write(line + '\\n');
  out('Server:\\t\\t' + ns);
  out('Address:\\t' + ns + '#53');
  out('');
  const fail = (what, code) => {
    if (code === 'ETIMEOUT' || code === 'ECONNREFUSED') out(';; connection timed out; no servers could be reached');
    else if (code === 'ENODATA') out("*** Can't find " + what + ': No answer');
    else out("** server can't find " + what + ': ' + (code === 'ESERVFAIL' ? 'SERVFAIL' : code === 'EREFUSED' ? 'REFUSED' : 'NXDOMAIN'));
    out('');
    return 1;
  };
  const reverseName = (ip) => ip.split('.').reverse().join('.') + '.in-addr.arpa';
  if (isIP(name) === 4 && (type === 'A' || type === 'PTR')) {
    try {
      for (const host of await r.reverse(name)) out(reverseName(name) + '\\tname = ' + host + '.');
      out('');
      return 0;
    } catch (e) { return fail(reverseName(name), e.code); }
  }
  // the search list as the resolver applies it: a name with ndots dots or more is tried as it is first
  const bare = name.replace(/\\.$/, '');
  const dots = bare.split('.').length - 1;
  const candidates = name.endsWith('.') ? [bare] : dots >= ndots ? [bare, ...search.map((s) => bare + '.' + s)] : [...search.map((s) => bare + '.' + s), bare];
  const show = {
    A: async (n) => (await r.resolve4(n)).map((a) => ['Name:\\t' + n, 'Address: ' + a]).flat(),
    AAAA: async (n) => (await r.resolve6(n)).map((a) => ['Name:\\t' + n, 'Address: ' + a]).flat(),
    CNAME: async (n) => (await r.resolveCname(n)).map((c) => n + '\\tcanonical name = ' + c + '.'),
    MX: async (n) => (await r.resolveMx(n)).map((m) => n + '\\tmail exchanger = ' + m.priority + ' ' + m.exchange + '.'),
    NS: async (n) => (await r.resolveNs(n)).map((h) => n + '\\tnameserver = ' + h + '.'),
    PTR: async (n) => (await r.resolvePtr(n)).map((h) => n + '\\tname = ' + h + '.'),
    SRV: async (n) => (await r.resolveSrv(n)).map((s) => n + '\\tservice = ' + s.priority + ' ' + s.weight + ' ' + s.port + ' ' + s.name + '.'),
    TXT: async (n) => (await r.resolveTxt(n)).map((t) => n + '\\ttext = "' + t.join('') + '"'),
    SOA: async (n) => { const s = await r.resolveSoa(n); return [n, '\\torigin = ' + s.nsname, '\\tmail addr = ' + s.hostmaster, '\\tserial = ' + s.serial, '\\trefresh = ' + s.refresh, '\\tretry = ' + s.retry, '\\texpire = ' + s.expire, '\\tminimum = ' + s.minttl]; },
  };
  if (!show[type]) { process.stderr.write('nslookup: unsupported query type ' + type + '\\n'); return 1; }
  let last = 'ENOTFOUND';
  for (const n of candidates) {
    try {
      const lines = [];
      if (type === 'A') {
        // an alias first, then the addresses of its target, as bind's nslookup shows a CNAME
        const target = await r.resolveCname(n).then((c) => c[0], () => undefined);
        if (target) lines.push(n + '\\tcanonical name = ' + target + '.');
        lines.push(...await show.A(target ?? n));
        const v6 = await show.AAAA(target ?? n).catch(() => []);
        lines.push(...v6);
      } else {
        lines.push(...await show[type](n));
      }
      for (const l of lines) out(l);
      out('');
      return 0;
    } catch (e) {
      last = e.code;
      if (last !== 'ENOTFOUND' && last !== 'ENODATA') break;
    }
  }
  return fail(bare, last);
}
// the exit code is set, not forced: a forced exit can lose what is still being written to a pipe or socket
process.exitCode = await main();
`,
};
