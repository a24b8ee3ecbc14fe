// The page's module in two parts (wasm/split.mjs): the primary part that the first screen waits
// for, and the deferred part with the practice and search code. The two together must answer
// exactly as the whole module does, and the primary part alone must answer every calculator
// call, never reaching a function that has not loaded yet.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { napkin, ROOT } = require('./napkin.cjs');

const createNapkin = require(path.join(ROOT, 'build/wasm/napkin.js'));

// The primary part as a served page and the embed fetch it (napkin.wasm.deflate, deflated), and
// the deferred part beside it.
function parts() {
  return {
    primary: zlib.inflateRawSync(fs.readFileSync(path.join(ROOT, 'dist/napkin.wasm.deflate'))),
    deferred: fs.readFileSync(path.join(ROOT, 'dist/napkin-deferred.wasm')),
  };
}

async function splitModule() {
  const { primary, deferred } = parts();
  let asked = 0;
  const api = await createNapkin({ wasmBinary: primary, deferredWasm: () => { asked++; return WebAssembly.compile(deferred); } });
  return { api, asked: () => asked };
}

test('the primary part alone answers every estimator, sweep and preset list as the whole module does', async () => {
  const whole = await napkin();
  const { api, asked } = await splitModule();
  assert.equal(api.needsDeferred, true, 'the page module is split');
  assert.deepEqual(api.list(), whole.list());
  assert.deepEqual(api.hardware(), whole.hardware());
  assert.deepEqual(api.models(), whole.models());
  for (const e of whole.list().estimators) {
    const inputs = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
    assert.deepEqual(api.run(e.id, inputs), whole.run(e.id, inputs), e.id);
    // An error path too: the first numeric input out of its range.
    const num = e.inputs.find((i) => i.kind === 'number');
    if (num) assert.deepEqual(api.run(e.id, { ...inputs, [num.name]: -1e300 }), whole.run(e.id, { ...inputs, [num.name]: -1e300 }), e.id);
  }
  assert.deepEqual(api.sweep('train.time', {}, 'gpus', [8, 64, 512]), whole.sweep('train.time', {}, 'gpus', [8, 64, 512]));
  assert.equal(api.format(3.2e12, 'B'), whole.format(3.2e12, 'B'));
  assert.deepEqual(api.parse('80 GB', 'B'), whole.parse('80 GB', 'B'));
  assert.equal(asked(), 0, 'nothing above loads the deferred part');
});

test('before the deferred part loads, the practice calls answer an error value; after, they match the whole module', async () => {
  const whole = await napkin();
  const { api, asked } = await splitModule();
  const bank = fs.readFileSync(path.join(ROOT, 'dist/problems.json'), 'utf8');
  for (const r of [api.problems(), api.problem('infer.kv.bytes', 0), api.check('infer.kv.bytes', 0, '1'), api.loadProblems(bank)])
    assert.equal(r.error.code, 'not_loaded');
  assert.deepEqual(await api.loadDeferred(), { ok: true });
  assert.deepEqual(await api.loadDeferred(), { ok: true });
  assert.equal(asked(), 1, 'loaded once');
  assert.equal(api.needsDeferred, false);
  assert.equal(api.loadProblems(bank).loaded, whole.problems().problems.length);
  const ids = whole.problems().problems.map((p) => p.id);
  for (const id of ids.filter((_, i) => i % 7 === 0)) {
    assert.deepEqual(api.problem(id, 5), whole.problem(id, 5), id);
    assert.deepEqual(api.check(id, 5, '42'), whole.check(id, 5, '42'), id);
  }
  const job = { gpus: 64, global_batch: 256 };
  const [a, b] = [await api.search(job), await whole.search(job)];
  assert.deepEqual({ ...a, seconds: 0, configs_per_second: 0 }, { ...b, seconds: 0, configs_per_second: 0 });
});

test('search loads the deferred part itself, and a failed load is an error value that a later call retries', async () => {
  const { primary, deferred } = parts();
  let fail = true;
  const api = await createNapkin({ wasmBinary: primary, deferredWasm: () => (fail ? Promise.reject(new Error('offline')) : WebAssembly.compile(deferred)) });
  const job = { gpus: 64, global_batch: 256 };
  const r = await api.search(job);
  assert.equal(r.error.code, 'not_loaded');
  assert.match(r.error.message, /offline/);
  fail = false;
  const s = await api.search(job);
  assert.ok(!s.error && s.best, JSON.stringify(s).slice(0, 200));
});

test('the split chooser keeps every function an indirect call may reach, by its signature, in the primary part', async () => {
  const { deferredFunctions } = await import(path.join(ROOT, 'wasm/split.mjs'));
  // Embind's registrations: each core function and its invoker, by table slot (embindFunctions).
  const bound = [{ name: 'coreRun', invoker: 4, fn: 3 }, { name: 'coreSearch', invoker: 6, fn: 5 },
    ...['coreLoadProblems', 'coreProblems', 'coreProblem', 'coreCheck'].map((name) => ({ name, invoker: 6, fn: 7 }))];
  const wat = (runBody) => [
    ' (elem (i32.const 1) $t1 $t2 $run $invoke $search $invoke2 $load)',
    ' (export "a" (func $malloc))',
    ' (func $malloc', '  (nop)', ' )',
    ' (func $run', runBody, ' )',
    ' (func $invoke (param $0 i32)', '  (nop)', ' )',
    ' (func $invoke2 (param $0 i32) (param $1 i32)', '  (nop)', ' )',
    ' (func $shared', '  (nop)', ' )',
    ' (func $search', '  (call $shared)', '  (call $only_search)', ' )',
    ' (func $only_search', '  (call $t2)', ' )',
    ' (func $load', '  (call $t1)', ' )',
    ' (func $t1 (param $0 i32)', '  (nop)', ' )', ' (func $t2', '  (nop)', ' )',
  ].join('\n');
  // run calls shared directly and nothing through the table: the table's functions go too.
  assert.deepEqual(deferredFunctions(wat('  (call $shared)'), bound).sort(), ['$load', '$only_search', '$search', '$t1', '$t2']);
  // run calls through the table with t2's signature (no params, no result): t2 may be its target
  // and stays; t1 (one i32 param) cannot be (the call would trap) and goes.
  assert.deepEqual(deferredFunctions(wat('  (call $shared)\n  (call_indirect (type $=>_none) (i32.const 1))'), bound).sort(), ['$load', '$only_search', '$search', '$t1']);
  // With t1's signature, t1 stays and t2 goes; so would the invoker $invoke, but JavaScript calls
  // every invoker, and they all stay.
  assert.deepEqual(deferredFunctions(wat('  (call $shared)\n  (call_indirect (type $i32_=>_none) (i32.const 0) (i32.const 1))'), bound).sort(), ['$load', '$only_search', '$search', '$t2']);
  // A type no table function has means the text was misread: every table function stays but the
  // deferred core functions, which only Embind calls.
  assert.deepEqual(deferredFunctions(wat('  (call $shared)\n  (call_indirect (type $0) (i32.const 1))'), bound).sort(), ['$load', '$only_search', '$search']);
  // The calculator's indirect calls of a deferred core function's own type do not keep it.
  assert.deepEqual(deferredFunctions(wat('  (call $shared)\n  (call_indirect (type $=>_none) (i32.const 5))'), bound).sort(), ['$load', '$only_search', '$search', '$t1']);
});

test('the split learns the core functions and their invokers from the module\'s own Embind registrations', async () => {
  const { embindFunctions, DEFERRED } = await import(path.join(ROOT, 'wasm/split.mjs'));
  const text = fs.readFileSync(path.join(ROOT, 'build/wasm/napkin.js'), 'utf8');
  const bytes = Buffer.from(/data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)/.exec(text)[1], 'base64');
  const bound = embindFunctions(bytes, text);
  const names = bound.map((b) => b.name);
  for (const n of ['coreList', 'coreRun', 'coreSweep', 'coreFormat', ...DEFERRED]) assert.ok(names.includes(n), n);
  for (const b of bound) assert.ok(Number.isInteger(b.invoker) && b.invoker > 0 && Number.isInteger(b.fn) && b.fn > 0, b.name);
});
