// search() of SPEC §9 through the JS API in node (in this thread; the page runs the same call
// in a Web Worker, tests/e2e/plan.spec.mjs): a Promise that always resolves, the search JSON,
// progress, cancelling, and errors as values.
const test = require('node:test');
const assert = require('node:assert/strict');
const { napkin } = require('./napkin.cjs');

test('search() resolves to the counted search JSON, with progress', async () => {
  const api = await napkin();
  const seen = [];
  const r = await api.search({}, { onProgress: (p) => seen.push(p) });
  assert.equal(r.error, undefined);
  const rejected = Object.values(r.rejected).reduce((a, b) => a + b, 0);
  // Every layout counts once: evaluated or rejected early; the evaluated ones fit or not.
  assert.equal(r.total, r.valid + rejected);
  assert.ok(r.valid > 0 && r.seconds > 0 && r.configs_per_second > 0);
  // Calculon's count for the same job (core/training/calculon_space.cpp), a whole number.
  assert.ok(Number.isInteger(r.calculon_space) && r.calculon_space > 0);
  // Every layout names its rank order, one of train.step's placement choices.
  assert.match(r.best.layout.placement, /^tp-(cp|dp|pp)-(cp|dp|pp)-(cp|dp|pp)$/);
  assert.ok(seen.length >= 1 && seen.every((p) => p.done <= p.total && p.total === r.total));
  assert.equal(seen[seen.length - 1].done, r.total);
  // The best is the first of the top list, which is sorted by step time; all fit.
  assert.deepEqual(r.best, r.top[0]);
  for (let i = 1; i < r.top.length; i++) assert.ok(r.top[i].outputs.step_time >= r.top[i - 1].outputs.step_time);
  assert.ok(r.top.every((x) => x.outputs.fits));
  // Pareto: more memory per GPU buys a shorter step.
  for (let i = 1; i < r.pareto.length; i++) {
    assert.ok(r.pareto[i].outputs.memory_per_gpu > r.pareto[i - 1].outputs.memory_per_gpu);
    assert.ok(r.pareto[i].outputs.step_time < r.pareto[i - 1].outputs.step_time);
  }
});

test('search() never throws: bad inputs and cancelling come back as errors', async () => {
  const api = await napkin();
  for (const bad of [5, 'x', [1], { gpus: 'many' }, { no_such_input: 1 }]) {
    const r = await api.search(bad);
    assert.ok(r.error && r.error.message, JSON.stringify(bad));
  }
  const ac = new AbortController();
  ac.abort();
  assert.equal((await api.search({}, { signal: ac.signal })).error.code, 'cancelled');
  const ac2 = new AbortController();
  const r = await api.search({}, { signal: ac2.signal, onProgress: () => ac2.abort() });
  assert.equal(r.error.code, 'cancelled');
  // A throwing progress callback is the caller's own: the search still answers.
  const ok = await api.search({}, { onProgress: () => { throw new Error('boom'); } });
  assert.ok(ok.best);
});
