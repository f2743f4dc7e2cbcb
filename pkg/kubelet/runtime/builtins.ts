// Programs the process runtime ships as "images" (config/images.json): written once as plain JavaScript files under
// the root dir and run with this Node binary. `pause` waits for a signal; `nginx` is a tiny static HTTP server that
// logs each request as nginx does (port $NGINX_PORT, else 80, else any free port when 80 cannot be had), serving
// $NGINX_ROOT, else /usr/share/nginx/html as the image does (where a volume is mounted there), else its working dir,
// with the nginx welcome page for an index.html it lacks.

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
};
