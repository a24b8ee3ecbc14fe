// Shared loader for the JS tests: the wasm module as built by `make wasm`, and the native CLI.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const createNapkin = require(path.join(ROOT, 'build/wasm/napkin.js'));
let instance = null;

// The module with the built-in problem files loaded, as the page loads them on first use.
async function napkin() {
  if (!instance) {
    instance = await createNapkin();
    for (const f of fs.readdirSync(path.join(ROOT, 'problems')).filter((n) => n.endsWith('.json')).sort()) {
      const r = instance.loadProblems(fs.readFileSync(path.join(ROOT, 'problems', f), 'utf8'));
      if (r.errors.length) throw new Error(`problems/${f}: ${r.errors.join('; ')}`);
    }
  }
  return instance;
}

function cli(...args) {
  const r = spawnSync(path.join(ROOT, 'build/native/napkin'), args, { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, json: r.stdout ? JSON.parse(r.stdout) : null };
}

module.exports = { napkin, cli, ROOT };
