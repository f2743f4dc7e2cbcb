// Programs the process runtime ships as "images" (config/images.json): written once as plain JavaScript files under
// the root dir and run with this Node binary. `pause` waits for a signal; `nginx` is a tiny static HTTP server that
// logs each request as nginx does (port $NGINX_PORT, else 80, else any free port when 80 cannot be had).

export const BUILTINS: Record<string, string> = {
  pause: `
const stop = () => process.exit(0);
process.on('SIGTERM', stop); process.on('SIGINT', stop);
setInterval(() => {}, 1 << 30);
`,
  nginx: `
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
const root = process.env.NGINX_ROOT || process.cwd();
const page = '<!DOCTYPE html>\\n<html>\\n<head>\\n<title>Welcome to nginx!</title>\\n</head>\\n<body>\\n<h1>Welcome to nginx!</h1>\\n<p>If you see this page, the nginx web server is successfully installed and working.</p>\\n</body>\\n</html>\\n';
const server = createServer(async (req, res) => {
  let status = 200; let body = page;
  const path = normalize(decodeURIComponent((req.url || '/').split('?')[0])).replace(/^(\\.\\.[\\/\\\\])+/, '');
  if (path !== '/' && path !== '/index.html') {
    try { body = await readFile(join(root, path)); } catch { status = 404; body = '<html><body><h1>404 Not Found</h1></body></html>\\n'; }
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
};
