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

test('the review queue: a miss is due at once, right answers space it out, then it leaves (#14 build)', async () => {
  const { record, loadProgress, dueReviews, REVIEW_DAYS } = await import('../../web/progress.js');
  const day = 86400000;
  let now = Date.UTC(2026, 10, 25);
  let p = loadProgress({ getItem: () => null });
  p = record(p, 'train.time.days', 'correct', 0, now);
  assert.deepEqual(dueReviews(p, now), []);  // solved first time: nothing to review
  p = record(p, 'mem.fsdp.states', 'wrong', 0, now);
  p = record(p, 'comm.zero.time', 'close', 0, now + 1);
  assert.deepEqual(dueReviews(p, now + 1), ['mem.fsdp.states', 'comm.zero.time']);  // longest overdue first
  // Right on review: box 1, back in a day, not before.
  p = record(p, 'mem.fsdp.states', 'correct', 3, now + 2);
  assert.deepEqual(dueReviews(p, now + 2), ['comm.zero.time']);
  assert.deepEqual(dueReviews(p, now + 2 + day), ['mem.fsdp.states', 'comm.zero.time'].sort((a, b) => p.review[a].due - p.review[b].due));
  // Each right answer a box up; after the last box it is gone.
  for (let box = 2; box <= REVIEW_DAYS.length; box++) {
    now += 30 * day;
    p = record(p, 'mem.fsdp.states', 'correct', box, now);
  }
  assert.equal(p.review['mem.fsdp.states'], undefined);
  // A miss sends it back to the start.
  p = record(p, 'comm.zero.time', 'correct', 1, now);
  assert.equal(p.review['comm.zero.time'].box, 1);
  p = record(p, 'comm.zero.time', 'wrong', 2, now);
  assert.deepEqual(p.review['comm.zero.time'], { box: 0, due: now });
  // A hand-edited store keeps its good entries and drops the broken ones.
  const stored = JSON.stringify({ ...p, review: { a: { box: 1, due: 5 }, b: { box: 'x', due: 1 }, c: null, d: { box: 99, due: 1 } } });
  assert.deepEqual(loadProgress({ getItem: () => stored }).review, { a: { box: 1, due: 5 } });
});
