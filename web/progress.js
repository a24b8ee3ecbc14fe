// Practice progress in localStorage. The store may be missing (file://, privacy modes), full,
// or corrupted by hand: every read validates, every write may fail, and neither breaks the page.
const KEY = 'napkin-progress-v1';

function empty() {
  return { solved: {}, attempts: 0, correct: 0, streak: 0, best: 0 };
}

function valid(p) {
  return p && typeof p === 'object' && p.solved && typeof p.solved === 'object' && !Array.isArray(p.solved) &&
    ['attempts', 'correct', 'streak', 'best'].every((k) => Number.isFinite(p[k]) && p[k] >= 0);
}

export function loadProgress(storage = globalThis.localStorage) {
  try {
    const p = JSON.parse(storage.getItem(KEY));
    return valid(p) ? p : empty();
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

// One checked answer: counts, streaks, and which problems have been solved at least once.
// The streak grows only on a variant (problem and seed) not solved before: re-entering a
// known answer is not practice. A miss still breaks it.
export function record(p, problemId, verdict, seed = 0) {
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
  return next;
}
