// Property-based parity: for every estimator, thousands of random valid and corner inputs
// (large and tiny magnitudes, every choice, every flag) give exactly the same outputs — or the
// same error, naming the same input — natively and in wasm. Fixed seeds keep it repeatable.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { napkin, ROOT } = require('./napkin.cjs');

const PER_ESTIMATOR = Number(process.env.NAPKIN_PARITY_RUNS) || 10000;

// splitmix32: a small deterministic generator.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
  };
}

function randomValue(spec, r) {
  if (spec.kind === 'boolean') return r() < 0.5;
  if (spec.kind === 'choice') return spec.choices[Math.floor(r() * spec.choices.length)];
  if (spec.kind !== 'number') return spec.example;
  const roll = r();
  if (roll < 0.45) return spec.example;
  const lo = Math.max(spec.min, spec.min_exclusive ? Math.max(spec.min, 1e-9) : spec.min);
  const hi = Math.min(spec.max, 1e18);
  // Corners: the smallest allowed value (for a whole number above an exclusive minimum, the
  // next whole number: 1e-9 would only test the whole-number check, again and again).
  if (roll < 0.55) return spec.min_exclusive ? (spec.integer ? Math.floor(spec.min) + 1 : Math.max(lo, 1e-9)) : lo;
  if (roll < 0.6) return hi;
  let v;
  if (roll < 0.8 && spec.example > 0) v = spec.example * Math.exp((r() - 0.5) * 6);  // near the example
  else {
    const a = Math.log10(Math.max(lo, 1e-9)), b = Math.log10(Math.max(hi, 1e-9));
    v = Math.pow(10, a + r() * (b - a));  // any magnitude in range
  }
  if (spec.integer) v = Math.max(Math.ceil(lo), Math.round(v));
  return Math.min(hi, Math.max(lo, v));
}

test(`native and wasm agree exactly on ${PER_ESTIMATOR} random inputs per estimator`, async () => {
  const api = await napkin();
  const reg = api.list();
  const lines = [];
  const wasm = [];
  for (const [k, e] of reg.estimators.entries()) {
    const r = rng(1000 + k);
    for (let i = 0; i < PER_ESTIMATOR; i++) {
      const inputs = {};
      // Half the draws move every input at once; the other half move one input from the
      // example, so that estimators with many cross-checked inputs (a model's shape, a layout)
      // still reach their corners in valid runs.
      if (i % 2) for (const spec of e.inputs) inputs[spec.name] = randomValue(spec, r);
      else {
        const one = e.inputs[Math.floor(r() * e.inputs.length)];
        for (const spec of e.inputs) inputs[spec.name] = spec === one ? randomValue(spec, r) : spec.example;
      }
      lines.push(JSON.stringify({ id: e.id, inputs }));
      const w = api.run(e.id, inputs);
      wasm.push(w.error ? { error: { code: w.error.code, input: w.error.input, message: w.error.message } } : { outputs: w.outputs });
    }
  }
  const native = spawnSync(path.join(ROOT, 'build/native/napkin'), ['batch'], {
    input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 30,
  });
  assert.equal(native.status, 0, native.stderr);
  const out = native.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(out.length, wasm.length);
  let valid = 0;
  for (let i = 0; i < out.length; i++) {
    if (!wasm[i].error) valid++;
    if (JSON.stringify(out[i]) !== JSON.stringify(wasm[i]))
      assert.deepEqual(wasm[i], out[i], `run ${i}: ${lines[i]}`);
    // Errors are values that name an input or say which inputs disagree; outputs are finite.
    if (wasm[i].outputs)
      for (const [k, v] of Object.entries(wasm[i].outputs))
        if (typeof v === 'number') assert.ok(Number.isFinite(v), `${lines[i]}: ${k} = ${v}`);
  }
  // Most draws must be valid, or the test says little.
  assert.ok(valid > 0.5 * wasm.length, `only ${valid} of ${wasm.length} draws were valid`);
});
