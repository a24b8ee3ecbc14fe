// Shared loader for the JS tests: the wasm module as built by `make wasm`, and the native CLI.
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const createNapkin = require(path.join(ROOT, 'build/wasm/napkin.js'));
let instance = null;

async function napkin() {
  if (!instance) instance = await createNapkin();
  return instance;
}

function cli(...args) {
  const r = spawnSync(path.join(ROOT, 'build/native/napkin'), args, { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: r.stdout ? JSON.parse(r.stdout) : null };
}

module.exports = { napkin, cli, ROOT };
