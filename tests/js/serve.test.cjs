// web/serve.mjs (make run, browser tests): answers malformed requests instead of dying, never
// serves a file from outside its root, answers only GET and HEAD, and sends each HTML page a
// CSP that lets its own inline scripts run (dist/napkin.html has them) and says who may frame it.
//
// The traversal cases are sent as raw request paths (http.request sends `path` as given; a
// `new URL()` on the client side would remove the dots before the server ever saw them), to a
// root that sits next to a secret file, so a server that let them through would be caught
// serving the secret, not merely answering 404 for a file that does not exist.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');
const crypto = require('node:crypto');
const { spawn } = require('node:child_process');
const { ROOT } = require('./napkin.cjs');

const SECRET = 'the secret outside the root';

function request(port, rawPath, method = 'GET') {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: 'error ' + e.message }));
    req.end();
  });
}

// The server on a free port (it prints the port it got).
async function serve(root) {
  const server = spawn(process.execPath, [path.join(ROOT, 'web/serve.mjs'), root, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const line = await new Promise((ok) => server.stdout.once('data', (d) => ok(String(d))));
  const port = Number(line.match(/127\.0\.0\.1:(\d+)/)[1]);
  return { server, port };
}

// tmp/secret.txt and tmp/outside/secret.txt beside tmp/root/, which holds a page, a symlink to
// the secret and a symlinked directory leading out.
function sandbox() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'napkin-serve-'));
  const root = path.join(tmp, 'root');
  fs.mkdirSync(path.join(root, 'sub'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'outside'));
  fs.writeFileSync(path.join(tmp, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(tmp, 'outside', 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>in the root</title>');
  fs.writeFileSync(path.join(root, 'sub', 'page.html'), '<!doctype html><title>also in the root</title>');
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(root, 'link.txt'));
  fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'out'));
  fs.symlinkSync(path.join(root, 'sub', 'page.html'), path.join(root, 'inside-link.html'));
  return { tmp, root };
}

test('the static server never serves a file from outside its root, however the path is spelled', async () => {
  const { tmp, root } = sandbox();
  const { server, port } = await serve(root);
  try {
    const hostile = [
      '/../secret.txt', '/../../secret.txt', '/sub/../../secret.txt', '/%2e%2e/secret.txt', '/%2E%2E/secret.txt',
      '/..%2fsecret.txt', '/%2e%2e%2fsecret.txt', '/sub%2f..%2f..%2fsecret.txt', '/..%5csecret.txt', '/..\\secret.txt',
      '/.%2e/secret.txt', '//../secret.txt', '/link.txt', '/out/secret.txt', '/out%2fsecret.txt', '/%2e%2e/outside/secret.txt',
      `/${'../'.repeat(20)}${path.join(tmp, 'secret.txt').slice(1)}`, `/${encodeURIComponent(path.join(tmp, 'secret.txt'))}`,
    ];
    for (const p of hostile) {
      const r = await request(port, p);
      assert.ok(!r.body.includes(SECRET), `${p} served the secret`);
      assert.ok([400, 403, 404].includes(r.status), `${p}: ${r.status}`);
    }
    assert.equal((await request(port, '/%E0%A4%A')).status, 400);
    assert.ok([400, 404].includes((await request(port, '/%00')).status));
    // What is inside the root still works, a symlink that stays inside included.
    assert.equal((await request(port, '/')).status, 200);
    assert.equal((await request(port, '/sub/page.html')).status, 200);
    assert.equal((await request(port, '/inside-link.html')).status, 200);
    assert.equal(server.exitCode, null);
  } finally {
    server.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('only GET and HEAD are answered; anything else is 405 with Allow', async () => {
  const { tmp, root } = sandbox();
  const { server, port } = await serve(root);
  try {
    const head = await request(port, '/index.html', 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const r = await request(port, '/index.html', method);
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.allow, 'GET, HEAD', method);
    }
  } finally {
    server.kill();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('each page of dist/ gets a CSP that runs its inline scripts and says who may frame it', async () => {
  const { server, port } = await serve(path.join(ROOT, 'dist'));
  try {
    const single = await request(port, '/napkin.html');
    assert.equal(single.status, 200);
    const csp = single.headers['content-security-policy'];
    const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src '));
    // dist/napkin.html is one file: its scripts are inline, and a header without their hashes
    // leaves the page blank (issue #30.22).
    const inline = [...single.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter((m) => !/\bsrc\s*=/.test(m[1]) && m[2]);
    assert.ok(inline.length > 0, 'napkin.html has no inline script to check');
    for (const m of inline) {
      const hash = `'sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}'`;
      assert.ok(scriptSrc.split(' ').includes(hash), `the header's script-src lacks ${hash.slice(0, 20)}…`);
    }
    assert.doesNotMatch(scriptSrc, /'unsafe-inline'|'unsafe-eval'/);
    assert.match(csp, /frame-ancestors 'self'/);
    // A study site on any origin frames embed.html; the app pages only frame themselves.
    assert.match((await request(port, '/embed.html')).headers['content-security-policy'], /frame-ancestors \*/);
    assert.match((await request(port, '/index.html')).headers['content-security-policy'], /frame-ancestors 'self'/);
    assert.doesNotMatch((await request(port, '/index.html')).headers['content-security-policy'], /sha256-/);
  } finally {
    server.kill();
  }
});
