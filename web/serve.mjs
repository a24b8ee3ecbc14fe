// A small static server for dist/ (make run, browser tests): sends the strict CSP the page
// must work under, and nothing else. Usage: node web/serve.mjs [dir] [port] (port 0: any free
// port; the line it prints names it).
//
// It serves only files whose real path (symlinks resolved) is inside the root, answers only
// GET and HEAD, and gives each HTML page the header CSP with the hashes of that page's own
// inline scripts (dist/napkin.html is one file of inline scripts: without them it is blank).
// frame-ancestors can only be sent as a header (a <meta> CSP ignores it): embed.html is made
// to be framed by study sites on any origin; every other page only by the same origin.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { CSP, policy, inlineScriptHashes } from './csp.mjs';

// The root's real path: a dist/ that is itself a symlink still works, and every file's real
// path is compared with it.
const root = fs.realpathSync(path.resolve(process.argv[2] || 'dist'));
const port = Number(process.argv[3] ?? process.env.PORT ?? 8080);
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.woff2': 'font/woff2', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.md': 'text/markdown; charset=utf-8',
};
export { CSP };
// NAPKIN_NO_CSP=1 serves without the header: how a plain static host serves a copy of dist/
// (the browser tests check that the pages' own <meta> CSP and code are safe there too).
const sendCsp = process.env.NAPKIN_NO_CSP !== '1';
const FRAMEABLE = new Set(['embed.html']);

function send(res, status, text, headers = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

// The real path of the file a request names, or null: outside the root (by `..`, an encoded
// slash or a symlink), missing, or a directory.
function resolve(urlPath) {
  // An encoded slash or backslash would let one "segment" climb after decoding; no file of
  // dist/ needs one.
  if (/%2f|%5c|\\/i.test(urlPath)) return null;
  let p = decodeURIComponent(urlPath);
  if (p.includes('\0') || p.split('/').includes('..')) return null;
  if (p.endsWith('/')) p += 'index.html';
  try {
    const real = fs.realpathSync(path.join(root, path.normalize(p)));
    if (!real.startsWith(root + path.sep)) return null;
    return fs.statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

// The header CSP of an HTML page names its inline scripts' hashes (computed per request: the
// single file is 1 MB, a few milliseconds, and never stale after a rebuild).
function cspFor(file, html) {
  const frame = `frame-ancestors ${FRAMEABLE.has(path.relative(root, file)) ? '*' : "'self'"}`;
  return `${html === null ? CSP : policy(inlineScriptHashes(html))}; ${frame}`;
}

const server = http.createServer((req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed', { allow: 'GET, HEAD' });
  // One bad request (a malformed %-escape, a path outside dist/) gets an answer, never a crash.
  let urlPath;
  try {
    urlPath = new URL(req.url, 'http://x').pathname;
    decodeURIComponent(urlPath);
  } catch {
    return send(res, 400, 'bad request');
  }
  const file = resolve(urlPath);
  if (!file) return send(res, 404, 'not found');
  const isHtml = path.extname(file) === '.html';
  let html = null;
  try {
    if (isHtml) html = fs.readFileSync(file, 'utf8');
  } catch {
    return send(res, 404, 'not found');
  }
  const headers = {
    'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  if (sendCsp) headers['content-security-policy'] = cspFor(file, html);
  // The embed script fetches napkin.wasm.deflate and napkin-problems.json from beside itself, also
  // when a study site on another origin includes it: those are public files, readable by any.
  if (/\.(wasm|json|deflate)$/.test(file)) headers['access-control-allow-origin'] = '*';
  res.writeHead(200, headers);
  if (req.method === 'HEAD') return res.end();
  if (html !== null) return res.end(html);
  const stream = fs.createReadStream(file);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
});
server.on('clientError', (err, socket) => socket.destroy());
server.listen(port, '127.0.0.1', () => console.log(`Napkin is served at http://127.0.0.1:${server.address().port}/ (dist/napkin.html also works from disk)`));
