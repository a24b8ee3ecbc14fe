// Practice progress (web/progress.js): issue #14.10, streaks grew by re-answering a solved problem.
const test = require('node:test');
const assert = require('node:assert/strict');

test('the streak grows once per solved variant; re-answering it adds nothing', async () => {
  const { record, loadProgress } = await import('../../web/progress.js');
  const store = { getItem: () => null };
  let p = loadProgress(store);
  p = record(p, 'infer.latency.decode', 'correct', 0);
  assert.equal(p.streak, 1);
  for (let i = 0; i < 5; i++) p = record(p, 'infer.latency.decode', 'correct', 0);
  assert.equal(p.streak, 1);
  assert.equal(p.best, 1);
  assert.equal(p.correct, 6);  // answers are still counted
  p = record(p, 'infer.latency.decode', 'correct', 1);  // a new variant is new practice
  assert.equal(p.streak, 2);
  p = record(p, 'mem.fsdp.states', 'wrong', 0);
  assert.equal(p.streak, 0);
});
