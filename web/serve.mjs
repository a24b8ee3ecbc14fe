// A small static server for dist/ (make run, browser tests): sends the strict CSP the page
// must work under, and nothing else. Usage: node web/serve.mjs [dir] [port]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { CSP } from './csp.mjs';

const root = path.resolve(process.argv[2] || 'dist');
const port = Number(process.argv[3] || process.env.PORT || 8080);
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.md': 'text/markdown; charset=utf-8',
};
export { CSP };
// NAPKIN_NO_CSP=1 serves without the header: how a plain static host serves a copy of dist/
// (the browser tests check that the pages' own <meta> CSP and code are safe there too).
const sendCsp = process.env.NAPKIN_NO_CSP !== '1';

function send(res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

const server = http.createServer((req, res) => {
  // One bad request (a malformed %-escape, a path outside dist/) gets an answer, never a crash.
  let p;
  try {
    p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  } catch {
    return send(res, 400, 'bad request');
  }
  if (p.includes('\0')) return send(res, 400, 'bad request');
  if (p.endsWith('/')) p += 'index.html';
  const file = path.join(root, path.normalize(p));
  let stat = null;
  try {
    stat = file.startsWith(root + path.sep) ? fs.statSync(file) : null;
  } catch {}
  if (!stat || stat.isDirectory()) return send(res, 404, 'not found');
  const headers = {
    'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  if (sendCsp) headers['content-security-policy'] = CSP;
  res.writeHead(200, headers);
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
});
server.on('clientError', (err, socket) => socket.destroy());
server.listen(port, '127.0.0.1', () => console.log(`Napkin is served at http://127.0.0.1:${port}/ (dist/napkin.html also works from disk)`));
