// Same numbers everywhere: every estimator's example run gives identical JSON natively (CLI)
// and in wasm, and the CLI's error exits name the input.
const test = require('node:test');
const assert = require('node:assert/strict');
const { napkin, cli } = require('./napkin.cjs');

test('native CLI and wasm agree exactly on every estimator', async () => {
  const api = await napkin();
  const reg = api.list();
  assert.deepEqual(cli('list').json.estimators.map((e) => e.id), reg.estimators.map((e) => e.id));
  for (const e of reg.estimators) {
    const args = e.inputs.map((i) => `${i.name}=${typeof i.example === 'string' ? i.example : JSON.stringify(i.example)}`);
    const native = cli('run', e.id, ...args);
    assert.equal(native.code, 0, `${e.id}: ${native.stderr}`);
    const inputs = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
    const wasm = api.run(e.id, inputs);
    assert.deepEqual(wasm.outputs, native.json.outputs, e.id);
    assert.deepEqual(wasm.steps, native.json.steps, e.id);
  }
});

// Not only the examples: random draws from each input's declared range (one input moved off
// its example per run, as the property test does), outputs and derivations compared exactly
// (issue #30 item 23).
test('native CLI and wasm agree on random inputs, derivations included', async () => {
  const api = await napkin();
  const reg = api.list();
  let seed = 12345;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  let compared = 0;
  for (const e of reg.estimators) {
    for (let run = 0; run < 3; run++) {
      const moved = e.inputs[Math.floor(rand() * e.inputs.length)];
      const inputs = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
      if (moved.kind === 'number' && typeof moved.example === 'number') {
        const lo = moved.min_exclusive ? Math.max(moved.min, 1e-9) : moved.min;
        const hi = Math.min(moved.max, Math.max(1, Math.abs(moved.example)) * 100);
        let v = moved.example > 0 ? moved.example * Math.exp((rand() - 0.5) * 4) : lo + rand() * (hi - lo);
        if (moved.integer) v = Math.max(Math.ceil(lo), Math.round(v));
        inputs[moved.name] = Math.min(hi, Math.max(lo, v));
      } else if (moved.kind === 'choice') {
        inputs[moved.name] = moved.choices[Math.floor(rand() * moved.choices.length)];
      } else if (moved.kind === 'boolean') {
        inputs[moved.name] = !moved.example;
      }
      const args = Object.entries(inputs).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
      const native = cli('run', e.id, ...args);
      const wasm = api.run(e.id, inputs);
      if (native.code !== 0) {
        assert.ok(wasm.error, `${e.id}: native refused ${moved.name}, wasm did not`);
        assert.equal(wasm.error.input, native.json.error.input, e.id);
        continue;
      }
      assert.deepEqual(wasm.outputs, native.json.outputs, `${e.id} with ${moved.name}=${inputs[moved.name]}`);
      assert.deepEqual(wasm.steps, native.json.steps, `${e.id} with ${moved.name}=${inputs[moved.name]}`);
      compared += 1;
    }
  }
  assert.ok(compared > reg.estimators.length, `${compared} random runs compared`);
});

test('CLI: exit 2, a one-line message naming the input, and an error object', () => {
  const r = cli('run', 'train.time', 'params=-5', 'tokens=2T', 'gpus=512');
  assert.equal(r.code, 2);
  assert.match(r.stderr, /params/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.equal(r.json.error.input, 'params');
  assert.equal(cli('run', 'train.time', 'params=70B', 'tokens=2T').json.error.code, 'missing_input');
  assert.equal(cli('run', 'no.such').code, 2);
  assert.equal(cli('bogus').code, 2);
  const ok = cli('run', 'train.time', 'params=70B', 'tokens=2T', 'gpus=512', 'peak_flops=312e12');
  assert.equal(ok.code, 0);
  assert.ok(Math.abs(ok.json.outputs.days - 121.7) < 0.05);
  assert.ok(cli('hardware').json.accelerators.length >= 4);
});

test('native CLI and wasm give the same problem variants and verdicts', async () => {
  const api = await napkin();
  for (const p of api.problems().problems.slice(0, 80)) {
    for (const seed of [0, 3]) {
      const native = cli('problem', p.id, '--seed', String(seed));
      assert.equal(native.code, 0, `${p.id}: ${native.stderr}`);
      const wasm = api.problem(p.id, seed);
      assert.equal(wasm.statement, native.json.statement, p.id);
      assert.deepEqual(wasm.answer, native.json.answer, p.id);
    }
  }
  const c = cli('check', 'train.time.days', '--seed', '0', '--answer', '60 days');
  assert.deepEqual(api.check('train.time.days', 0, '60 days'), c.json);
});
