// The JS API never throws: hostile arguments come back as error values naming the argument.
const test = require('node:test');
const assert = require('node:assert/strict');
const { napkin } = require('./napkin.cjs');

test('hostile arguments are error values, not exceptions', async () => {
  const api = await napkin();
  const circular = {};
  circular.self = circular;
  const throwing = { get params() { throw new Error('boom'); } };
  const proxy = new Proxy({}, { ownKeys() { throw new Error('trap'); } });
  const cases = [
    () => api.run(Symbol('x'), {}),
    () => api.run('train.time', { params: 10n }),
    () => api.run('train.time', { params: Symbol('p') }),
    () => api.run('train.time', { params: () => 1 }),
    () => api.run('train.time', circular),
    () => api.run('train.time', throwing),
    () => api.run('train.time', proxy),
    () => api.run('train.time', 'params=70B'),
    () => api.sweep('train.time', {}, 'gpus', '123'),
    () => api.sweep('train.time', {}, 'gpus', { length: 1e9 }),
    () => api.sweep('train.time', {}, 'gpus', new Array(100001).fill(1)),
    () => api.sweep('train.time', {}, 'gpus', [1, NaN]),
    () => api.problem('serve.batching.gpus', NaN),
    () => api.problem('serve.batching.gpus', 2 ** 32 + 5),
    () => api.problem('serve.batching.gpus', 1.7),
    () => api.check('serve.batching.gpus', 0, 42),
    () => api.parse(10n, 'B'),
  ];
  for (const [i, call] of cases.entries()) {
    let r;
    assert.doesNotThrow(() => { r = call(); }, `case ${i}`);
    assert.ok(r && r.error && typeof r.error.message === 'string', `case ${i}: ${JSON.stringify(r)}`);
  }
  // A sweep over more than the cap is refused before anything is copied into wasm.
  const t0 = performance.now();
  assert.ok(api.sweep('train.time', { params: '70B', tokens: '2T', gpus: 8 }, 'gpus', new Float64Array(5e7)).error);
  assert.ok(performance.now() - t0 < 1000);
  assert.equal(api.format(Infinity, 'B'), '—');
  assert.equal(api.format(10n, 'B'), '—');
  // Seeds that fit are still taken, as numbers or digit strings.
  assert.ok(!api.problem('serve.batching.gpus', '3').error);
});

// Issue #30 items 14, 15 and 18: huge strings never corrupt the module; a getter read twice
// cannot slip past the caps; a number too long to read is an error, not 0.
test('huge strings and two-faced getters leave the module working (#30.14, #30.15, #30.18)', async () => {
  const api = await napkin();
  for (const n of [2e8, 5e8]) {
    const r = api.run('train.time', { params: 'k'.repeat(n) });
    assert.ok(r.error, 'a ' + n + '-character value is refused');
    assert.equal(r.error.input, 'params');
  }
  // Every later call still works.
  const ok = api.run('train.time', { params: '70B', tokens: '2T', gpus: 512, peak_flops: '312T' });
  assert.ok(!ok.error, JSON.stringify(ok.error));
  assert.ok(Math.abs(ok.outputs.days - 121.7) < 0.1);
  // A getter that answers a string first and a 20,000-key object the second time.
  let reads = 0;
  const big = {};
  for (let i = 0; i < 20000; i++) big['k' + i] = i;
  const twoFaced = { get params() { reads += 1; return reads === 1 ? '70B' : big; }, tokens: '2T', gpus: 512 };
  const r2 = api.run('train.time', twoFaced);
  assert.equal(reads, 1, 'each value is read once');
  assert.ok(!r2.error, JSON.stringify(r2.error));
  // 500 digits: an error, not {ok: true, value: 0}.
  const p = api.parse('1'.repeat(500), 'B');
  assert.ok(!p.ok);
});

// A course page passes its own problem files (#28): whatever it passes, loadProblems answers
// with a value, and a file's errors come back as a list, never as a throw.
test('loadProblems: hostile files are error values, a file\'s defects are listed', async () => {
  const api = await napkin();
  const circular = {};
  circular.self = circular;
  for (const [i, bad] of [undefined, 42, Symbol('f'), circular, 'x'.repeat(4000001)].entries()) {
    let r;
    assert.doesNotThrow(() => { r = api.loadProblems(bad); }, `case ${i}`);
    assert.ok(r && r.error && typeof r.error.message === 'string', `case ${i}: ${JSON.stringify(r)}`);
  }
  const notJson = api.loadProblems('{"napkin_problems": 1, "problems": [');
  assert.equal(notJson.loaded, 0);
  assert.match(notJson.errors[0], /^not JSON/);
  // An id the bank already has is refused; an expression that does not read names its field.
  const file = {
    napkin_problems: 1,
    problems: [
      { id: 'train.chinchilla.tokens', area: 'training', title: 't', statement: 's', estimator: 'train.chinchilla', output: 'optimal_tokens', hints: ['h'], difficulty: 1, tags: 'x' },
      { id: 'course.bad', area: 'training', title: 't', statement: 's', estimator: 'train.chinchilla', output: 'optimal_tokens', answer: 'out.optimal_tokens *', hints: ['h'], difficulty: 1, tags: 'x' },
    ],
  };
  const r = api.loadProblems(file);
  assert.equal(r.loaded, 0);
  assert.deepEqual(r.errors, [
    'train.chinchilla.tokens: duplicate id',
    'course.bad, answer: the expression ends too early at character 21 of "out.optimal_tokens *"',
  ]);
});
