// Derivations that are checked (issue #26 item 4): every step that substitutes numbers must
// compute, from the numbers it prints, the value it shows. Run over every estimator's example,
// every preset that fills its inputs, random draws from each input's range, and every problem
// variant of seeds 0–20.
const test = require('node:test');
const assert = require('node:assert/strict');
const { napkin } = require('./napkin.cjs');
const { checker } = require('./derivation_check.cjs');

// Every run the test makes: [label, estimator id, inputs].
function runs(api) {
  const reg = api.list();
  const out = [];
  let seed = 20261127;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (const e of reg.estimators) {
    const example = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
    out.push([`${e.id} example`, e.id, example]);
    const names = new Set(e.inputs.map((i) => i.name));
    for (const p of reg.presets) {
      if (p.estimators.length && !p.estimators.includes(e.id)) continue;
      const mine = Object.entries(p.values).filter(([k]) => names.has(k));
      if (mine.length) out.push([`${e.id} preset ${p.id}`, e.id, { ...example, ...Object.fromEntries(mine) }]);
    }
    for (let k = 0; k < 4; k++) {
      const moved = e.inputs[Math.floor(rand() * e.inputs.length)];
      if (moved.kind !== 'number' || typeof moved.example !== 'number' || !(moved.example > 0)) continue;
      let v = moved.example * Math.exp((rand() - 0.5) * 3);
      if (moved.integer) v = Math.max(1, Math.round(v));
      v = Math.min(moved.max, Math.max(moved.min_exclusive ? moved.min * 1.001 + 1e-12 : moved.min, v));
      out.push([`${e.id} ${moved.name}=${v}`, e.id, { ...example, [moved.name]: v }]);
    }
  }
  return out;
}

test('every substituted step computes the value it shows (examples, presets, random draws, problem variants)', async () => {
  const api = await napkin();
  const check = checker(api);
  const tally = { agrees: 0, disagrees: 0, unread: 0 };
  const wrong = [];
  const see = (label, steps) => {
    for (const st of steps || []) {
      const r = check(st);
      if (r.status === 'no value') continue;
      tally[r.status]++;
      if (r.status === 'disagrees')
        wrong.push(`${label}: "${st.title}": ${st.substituted} computes ${r.computed.toPrecision(5)}, shows ${st.value.toPrecision(5)}`);
    }
  };
  for (const [label, id, inputs] of runs(api)) {
    const r = api.run(id, inputs);
    if (!r.error) see(label, r.steps);
  }
  for (const p of api.problems().problems)
    for (let s = 0; s <= 20; s++) {
      const v = api.problem(p.id, s);
      if (!v.error) see(`problem ${p.id} seed ${s}`, v.solution);
    }
  const read = tally.agrees + tally.disagrees;
  console.log(`derivation steps: ${tally.agrees} agree, ${tally.disagrees} disagree, ${tally.unread} unread (symbols left in)`);
  assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} steps show a value their own numbers do not give`);
  // Most steps must be readable: a change that stops printing numbers fails here.
  assert.ok(read >= 0.85 * (read + tally.unread), `only ${read} of ${read + tally.unread} steps could be read`);
});

// A step that says nothing (T = \sum_i T_i, R = R, a formula with no number in it) shows no work:
// every step with a formula substitutes at least one number.
test('every step substitutes numbers (none says only "T = \\sum T_i")', async () => {
  const api = await napkin();
  const silent = new Set();
  for (const [label, id, inputs] of runs(api)) {
    const r = api.run(id, inputs);
    if (r.error) continue;
    for (const st of r.steps || []) {
      if (!st.substituted) continue;
      const rhs = st.substituted.slice(st.substituted.indexOf('=') + 1);
      if (!/\d/.test(rhs)) silent.add(`${id}: "${st.title}": ${st.substituted}`);
    }
  }
  assert.deepEqual([...silent], []);
});

test('the checker finds a deliberately broken step', async () => {
  const api = await napkin();
  const check = checker(api);
  const kv = api.list().estimators.find((e) => e.id === 'infer.kv');
  const r = api.run('infer.kv', Object.fromEntries(kv.inputs.map((i) => [i.name, i.example])));
  const step = r.steps.find((s) => s.substituted && s.substituted.includes('\\cdot'));
  assert.equal(check(step).status, 'agrees');
  assert.equal(check({ ...step, value: step.value * 1.1 }).status, 'disagrees');
  // A dropped factor in the printed formula.
  const dropped = { ...step, substituted: step.substituted.replace(/\\cdot \{[^}]*\}/, '') };
  assert.equal(check(dropped).status, 'disagrees');
  // Units are read in the base unit the display names: 2 B is two bytes, not two billion.
  assert.equal(check({ substituted: 'x = {3} \\cdot {2\\,\\text{B}}', value: 6 }).status, 'agrees');
  assert.equal(check({ substituted: 'x = \\left\\lceil \\frac{{1792}}{{132}} \\right\\rceil', value: 14 }).status, 'agrees');
});
