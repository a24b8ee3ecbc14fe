// The "/" finder (web/finder.js), issue #30.10: words people type find the calculators that
// mean them — by title, summary, input and output labels and help, a few synonyms — and the
// Plan card is found too.
const test = require('node:test');
const assert = require('node:assert/strict');
const { napkin } = require('./napkin.cjs');

async function find(query) {
  const { matches } = await import('../../web/finder.js');
  const api = await napkin();
  return matches(api.list(), query);
}

test('plan, allreduce, nccl, vram and quantization each find something relevant', async () => {
  const reg = (await napkin()).list();
  const plan = await find('plan');
  assert.ok(plan.length, 'plan');
  assert.equal(plan[0].title, reg.search.title, 'plan finds the Plan card first');
  assert.ok(plan[0].plan);
  const ids = async (q) => (await find(q)).map((e) => e.id);
  for (const q of ['allreduce', 'nccl']) assert.ok((await ids(q)).includes('comm.collective'), q);
  assert.ok((await ids('vram')).some((id) => id.startsWith('mem.')), 'vram');
  assert.ok((await ids('quantization')).length > 0, 'quantization');
  assert.ok((await ids('quantization')).includes('serve.engine'), 'quantization → int8 / int4 weights');
});

test('an input\'s label or help is searched, and titles still rank first', async () => {
  const reg = (await napkin()).list();
  const kv = await find('kv cache');
  assert.ok(kv.length > 1);
  assert.match(kv[0].title.toLowerCase(), /kv cache/);
  // A word only an input's help says (not a title, summary or id) still finds its card.
  const est = reg.estimators.find((e) => e.id === 'comm.collective');
  assert.ok(!/nccl/i.test(est.title + est.summary + est.id));
  assert.ok((await find('nccl')).some((e) => e.id === 'comm.collective'));
  assert.deepEqual(await find('zzzz qqq'), []);
});
