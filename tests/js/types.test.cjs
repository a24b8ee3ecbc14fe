// The shipped TypeScript declarations (wasm/napkin.d.ts → build/wasm and dist/) against the
// real module: a program using every method compiles under `tsc --strict`, then runs in node
// and checks that each declared field is there (tests/js/types/program.ts).
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');

test('napkin.d.ts: a strict TypeScript program compiles against it and runs against the module', () => {
  assert.ok(fs.existsSync(path.join(ROOT, 'build/wasm/napkin.d.ts')), 'build/wasm/napkin.d.ts (make wasm copies it)');
  assert.strictEqual(fs.readFileSync(path.join(ROOT, 'dist/napkin.d.ts'), 'utf8'),
    fs.readFileSync(path.join(ROOT, 'wasm/napkin.d.ts'), 'utf8'), 'dist/napkin.d.ts is wasm/napkin.d.ts');
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'napkin-types-'));
  const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '--strict', '--noUnusedLocals', '--target', 'es2020', '--module', 'commonjs',
      '--lib', 'es2020,dom', '--outDir', out, '--rootDir', path.join(ROOT, 'tests/js/types'),
      path.join(ROOT, 'tests/js/types/program.ts')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail('tsc --strict refused the program against napkin.d.ts:\n' + (e.stdout || e.message));
  }
  // The compiled program requires ../../../build/wasm/napkin.js relative to its source folder.
  const program = path.join(ROOT, 'tests/js/types/.program.cjs');
  fs.writeFileSync(program, fs.readFileSync(path.join(out, 'program.js'), 'utf8'));
  try {
    let stdout = '';
    try {
      stdout = execFileSync(process.execPath, [program], { encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      assert.fail('the program failed against the module: ' + String(e.stderr).slice(0, 500));
    }
    assert.match(stdout, /every declared shape matched/);
  } finally {
    fs.rmSync(program, { force: true });
    fs.rmSync(out, { recursive: true, force: true });
  }
});
