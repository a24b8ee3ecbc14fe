// The JS API of SPEC §3 over the wasm module: plain objects, errors as values, sweeps.
const test = require('node:test');
const assert = require('node:assert/strict');
const { napkin } = require('./napkin.cjs');

const close = (a, b, rel) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${a} ≉ ${b} (rel ${rel})`);

test('list() describes every estimator with inputs, outputs, charts and presets', async () => {
  const api = await napkin();
  const reg = api.list();
  const ids = reg.estimators.map((e) => e.id);
  for (const id of ['train.chinchilla', 'train.time', 'train.mfu', 'model.params', 'model.flops', 'moe.params'])
    assert.ok(ids.includes(id), id);
  for (const e of reg.estimators) {
    assert.ok(e.inputs.length > 0 && e.outputs.length > 0, e.id);
    for (const i of e.inputs) assert.ok(i.allowed && i.label, `${e.id}.${i.name}`);
  }
  assert.ok(reg.charts.length >= 3);
  assert.ok(reg.presets.some((p) => p.id === 'a100'));
});

test('run() answers the 121.7-day question and returns the derivation', async () => {
  const api = await napkin();
  const r = api.run('train.time', { params: '70B', tokens: 2e12, gpus: 512, peak_flops: '312 TFLOP/s' });
  assert.equal(r.error, undefined);
  close(r.outputs.days, 121.7, 1e-3);
  close(r.outputs.gpu_hours, 1495726, 1e-6);
  assert.equal(r.inputs.mfu, 0.5);
  assert.ok(r.steps.length >= 5 && r.steps[0].formula.includes('N'));
});

test('bad inputs come back as errors naming the input, never NaN or a throw', async () => {
  const api = await napkin();
  const base = { params: 70e9, tokens: 2e12, gpus: 512 };
  for (const bad of [NaN, Infinity, -1, 0, 'abc', '1e400', '', 'NaN', true, [1]]) {
    const r = api.run('train.time', { ...base, params: bad });
    assert.ok(r.error, `params=${String(bad)} should fail`);
    assert.equal(r.error.input, 'params');
    assert.match(r.error.message, /params/);
  }
  assert.equal(api.run('train.time', { tokens: 2e12, gpus: 512 }).error.code, 'missing_input');
  assert.equal(api.run('train.nope', {}).error.code, 'unknown_estimator');
  assert.equal(api.run('train.time', { ...base, gpuz: 8 }).error.code, 'unknown_input');
  // `gpu` is the scenario's accelerator preset: a number is not one of its ids.
  assert.equal(api.run('train.time', { ...base, gpu: 8 }).error.input, 'gpu');
  assert.equal(api.run('train.time', { ...base, gpus: 1.5 }).error.code, 'not_integer');
});

test('sweep() is one call returning a column per output, null where a point is invalid', async () => {
  const api = await napkin();
  const xs = Array.from({ length: 1000 }, (_, i) => i + 1);
  const s = api.sweep('train.time', { params: 70e9, tokens: 2e12, gpus: 512, peak_flops: 312e12 }, 'gpus', xs);
  assert.equal(s.x.length, 1000);
  close(s.outputs.days[511], 121.7, 1e-3);
  const bad = api.sweep('train.time', { params: 70e9, tokens: 2e12, gpus: 512 }, 'gpus', [-1, 2]);
  assert.equal(bad.outputs.days[0], null);
  assert.match(bad.errors[0], /gpus/);
  assert.ok(api.sweep('train.time', { params: 70e9, tokens: 2e12, gpus: 512 }, 'nope', [1]).error);
});

test('hardware(), format() and parse() share the core units', async () => {
  const api = await napkin();
  const hw = api.hardware();
  assert.ok(hw.accelerators.find((a) => a.id === 'h100').source.length > 10);
  assert.equal(api.format(80e9, 'B'), '80 GB');
  assert.equal(api.format(80 * 2 ** 30, 'B', { binary: true }), '80 GiB');
  assert.equal(api.parse('3.35 TB/s', 'B/s').value, 3.35e12);
  assert.match(api.parse('fast', 's').error, /50 µs/);
});

test('problems(), problem() and check() work the bank from JS, with the seed-000 mistake named', async () => {
  const api = await napkin();
  const bank = api.problems().problems;
  assert.ok(bank.length >= 60);
  for (const area of ['training', 'memory', 'comm', 'inference']) assert.ok(bank.some((p) => p.area === area), area);
  const p = api.problem('serve.batching.latency', 0);
  assert.match(p.statement, /50,000 QPS/);
  assert.equal(p.answer.text, '119.2 ms');  // 80 + 49 / (2 · 625) s; the example's 120 ms is within 2 %
  assert.ok(p.hints.length >= 1 && p.solution.length >= 1);
  assert.equal(api.check('serve.batching.latency', 0, '0.12 s').verdict, 'correct');
  const wrong = api.check('serve.batching.latency', 0, '80.8 ms');
  assert.equal(wrong.verdict, 'wrong');
  assert.equal(wrong.mistake, 'total_qps_for_collection');
  assert.match(wrong.feedback, /per-GPU QPS/);
  assert.ok(api.check('serve.batching.latency', 0, 'soon').error);
  assert.ok(api.problem('no.such.problem', 0).error);
});

// Issue #9: what the page reads from list() to show words, not ids, and to leave out what was
// not asked for.
test('list() carries choice labels, optional and hidden outputs, help texts and first-screen questions', async () => {
  const api = await napkin();
  const reg = api.list();
  const comm = reg.estimators.find((e) => e.id === 'comm.collective');
  const op = comm.inputs.find((i) => i.name === 'op');
  assert.equal(op.choice_labels.length, op.choices.length);
  assert.equal(op.choice_labels[op.choices.indexOf('all_reduce')], 'All-reduce');
  const tp = reg.estimators.find((e) => e.id === 'comm.tp_step');
  assert.equal(tp.inputs.find((i) => i.name === 'tokens').preset_key, 'step_tokens');
  const serve = reg.estimators.find((e) => e.id === 'serve.llm_gpus');
  assert.deepEqual(serve.outputs.filter((o) => o.hidden).map((o) => o.name).sort(), ['gpus_needed_seed', 'max_concurrent_seed', 'single_request_latency_seed', 'weight_memory_seed']);
  for (const e of reg.estimators) for (const x of [...e.inputs, ...e.outputs]) if (!x.hidden) assert.ok(x.help, `${e.id}.${x.name} has help`);
  assert.ok(reg.questions.length >= 4 && reg.questions.every((q) => reg.estimators.some((e) => e.id === q.estimator)));
  // Not asked for: absent (not 0, not null); asked for: a number.
  const time = api.run('train.time', { params: 70e9, tokens: 2e12, gpus: 512 });
  assert.equal('cost' in time.outputs, false);
  const priced = api.run('train.time', { params: 70e9, tokens: 2e12, gpus: 512, price_per_gpu_hour: 2 });
  close(priced.outputs.cost, 2 * priced.outputs.gpu_hours, 1e-12);
  const sweep = api.sweep('train.time', { params: 70e9, tokens: 2e12, gpus: 512 }, 'gpus', [64, 128]);
  assert.deepEqual(sweep.outputs.cost, [null, null]);
});
