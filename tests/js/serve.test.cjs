// web/serve.mjs (make run, browser tests) answers malformed requests instead of dying.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const http = require('node:http');
const { spawn } = require('node:child_process');
const { ROOT } = require('./napkin.cjs');

function get(port, rawPath) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(` ${res.statusCode} `));
    });
    req.on('error', (e) => resolve('error ' + e.message));
    req.end();
  });
}

test('the static server survives hostile paths and still serves the page', async () => {
  const port = 4900 + Math.floor(Math.random() * 90);
  const server = spawn(process.execPath, [path.join(ROOT, 'web/serve.mjs'), path.join(ROOT, 'dist'), String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise((ok) => server.stdout.once('data', ok));
  try {
    assert.match(await get(port, '/%E0%A4%A'), / 400 /);
    assert.match(await get(port, '/%00'), / 40[04] /);
    assert.match(await get(port, '/../../etc/passwd'), / 404 /);
    assert.match(await get(port, '/%2e%2e/%2e%2e/etc/passwd'), / 404 /);
    const ok = await get(port, '/index.html');
    assert.match(ok, / 200 /);
    assert.equal(server.exitCode, null);
  } finally {
    server.kill();
  }
});
