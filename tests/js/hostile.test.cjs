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
