// Practice progress in localStorage. The store may be missing (file://, privacy modes), full,
// or corrupted by hand: every read validates, every write may fail, and neither breaks the page.
const KEY = 'napkin-progress-v1';

function empty() {
  return { solved: {}, attempts: 0, correct: 0, streak: 0, best: 0, review: {} };
}

// Spaced review in Leitner boxes (Leitner 1972; the scheme behind flash-card systems): a
// problem answered wrong or only close goes to box 0, due at once; each correct answer on a
// problem in review moves it up a box, due again after that box's days; past the last box it
// leaves the queue. Reviews come back as new variants, so an answer cannot be remembered.
export const REVIEW_DAYS = [0, 1, 3, 7, 21];
const DAY_MS = 86400000;

export function schedule(p, problemId, verdict, now = Date.now()) {
  const review = { ...(p.review || {}) };
  const item = review[problemId];
  if (verdict !== 'correct') review[problemId] = { box: 0, due: now };
  else if (item) {
    const box = item.box + 1;
    if (box >= REVIEW_DAYS.length) delete review[problemId];
    else review[problemId] = { box, due: now + REVIEW_DAYS[box] * DAY_MS };
  }
  return { ...p, review };
}

// Problems due for review now, the longest overdue first.
export function dueReviews(p, now = Date.now()) {
  return Object.entries(p.review || {})
    .filter(([, r]) => r.due <= now)
    .sort((a, b) => a[1].due - b[1].due)
    .map(([id]) => id);
}

function valid(p) {
  return p && typeof p === 'object' && p.solved && typeof p.solved === 'object' && !Array.isArray(p.solved) &&
    ['attempts', 'correct', 'streak', 'best'].every((k) => Number.isFinite(p[k]) && p[k] >= 0);
}

// Review entries a hand-edited store may have broken are dropped, not trusted.
function cleanReview(review) {
  const out = {};
  if (!review || typeof review !== 'object' || Array.isArray(review)) return out;
  for (const [id, r] of Object.entries(review))
    if (r && Number.isInteger(r.box) && r.box >= 0 && r.box < REVIEW_DAYS.length && Number.isFinite(r.due)) out[id] = { box: r.box, due: r.due };
  return out;
}

export function loadProgress(storage = globalThis.localStorage) {
  try {
    const p = JSON.parse(storage.getItem(KEY));
    return valid(p) ? { ...p, review: cleanReview(p.review) } : empty();
  } catch {
    return empty();
  }
}

export function saveProgress(p, storage = globalThis.localStorage) {
  try {
    storage.setItem(KEY, JSON.stringify(p));
    return true;
  } catch {
    return false;  // quota exceeded or storage disabled: progress lives for this page only
  }
}

// One checked answer: counts, streaks, which problems have been solved at least once, and the
// review queue.
// The streak grows only on a variant (problem and seed) not solved before: re-entering a
// known answer is not practice. A miss still breaks it.
export function record(p, problemId, verdict, seed = 0, now = Date.now()) {
  const variants = p.variants && typeof p.variants === 'object' ? p.variants : {};
  const next = { ...p, solved: { ...p.solved }, variants: { ...variants } };
  next.attempts += 1;
  const key = `${problemId}@${seed}`;
  if (verdict === 'correct') {
    next.correct += 1;
    if (!variants[key]) next.streak += 1;
    next.best = Math.max(next.best, next.streak);
    next.solved[problemId] = true;
    next.variants[key] = true;
  } else {
    next.streak = 0;
  }
  return schedule(next, problemId, verdict, now);
}
