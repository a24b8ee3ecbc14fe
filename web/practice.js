// Practice: one problem at a time from the core's bank (statement, answer box, hints one by
// one, the worked solution: the estimator's steps up to the asked quantity), checked by the core, which names the
// mistake it recognises. Used by the Practice tab and by the <napkin-problem> element.
import { h } from './dom.js';
import { renderMath } from './math.js';
import { AREA_TITLES } from './areas.js';
import { loadProgress, saveProgress, record, dueReviews } from './progress.js';

const VERDICT_TEXT = { correct: 'Correct', close: 'Close', wrong: 'Not quite' };
export const DIFFICULTY = { 1: 'Warm-up', 2: 'Core', 3: 'Challenge' };
// The parts of a multi-part problem: the bank's problems that share its group, in bank order.
const partsOf = (bank, group) => (group ? bank.filter((q) => q.group === group) : []);
const partLetter = (i) => String.fromCharCode(97 + i);
// Why a partial score (the core's rule, core/practice/answer.hpp): the right value in the wrong
// unit, or close with the method right.
const scoreKind = (r) => (r.score > 0 && r.score < 1 ? (r.mistake ? 'unit' : 'close') : '');
// In words: the verdict box shows no digits before the answer is right (a number there could
// be read as a hint); the napkin-score event carries the number.
const scoreWords = (x) => (x >= 1 ? 'full marks' : x === 0.5 ? 'half marks' : x > 0 ? `${Math.round(x * 100)} % of the marks` : 'no marks');
const SCORE_WHY = { unit: ' (the right value in the wrong unit)', close: ' (the method right, the number a little off)', order: ' (two neighbours swapped)' };

export class ProblemView {
  // opts: { onSeed(seed), onResult(verdict), permalink(id, seed) → string | null }
  constructor(api, id, seed, opts = {}) {
    this.api = api;
    this.opts = opts;
    this.el = h('article', { class: 'problem', dataset: { problem: id } });
    this.load(id, seed);
  }

  load(id, seed) {
    this.id = id;
    this.seed = seed | 0;
    this.hintsShown = 0;
    this.hintsBeforeSolve = 0;  // hints opened before the first correct answer (each may cost)
    // The worked solution opened before a correct answer (#28 item 5): that answer scores
    // nothing, and the score event says so.
    this.solutionSeen = false;
    this.revealedBy = '';
    this.solvedHere = false;
    const p = this.api.problem(id, this.seed);
    this.el.dataset.problem = id;
    this.el.dataset.seed = String(this.seed);
    if (p.error) {
      this.el.replaceChildren(h('p', { class: 'form-error', role: 'alert', text: p.error.message }));
      return;
    }
    this.p = p;
    const answerId = `answer-${id}-${Math.random().toString(36).slice(2, 8)}`.replace(/[^A-Za-z0-9_-]/g, '-');
    this.answer = h('input', { type: 'text', id: answerId, name: 'answer', maxlength: '200', autocomplete: 'off', spellcheck: 'false', placeholder: this.yesNo() ? 'yes or no' : `e.g. ${this.example()}` });
    this.verdict = h('div', { class: 'verdict', role: 'status', 'aria-live': 'polite' });
    this.hints = h('ol', { class: 'hints' });
    this.hintButton = h('button', { type: 'button', class: 'hint-button', onclick: () => this.nextHint() });
    this.solution = h('div', { class: 'solution', hidden: true });
    // The source line quotes the original's answer: it appears after the attempt.
    this.source = h('p', { class: 'cite problem-source', hidden: true, text: 'From ' + p.source });
    const link = this.opts.permalink ? this.opts.permalink(id, this.seed) : null;
    // A part of a multi-part problem says which, in letters (a digit here could match the
    // answer), and leads to the next part.
    const parts = partsOf(this.api.problems().problems, p.group);
    const at = parts.findIndex((q) => q.id === id);
    const next = at >= 0 && at + 1 < parts.length ? parts[at + 1] : null;
    this.el.replaceChildren(
      h('header', {},
        h('p', { class: 'problem-area', text: `${AREA_TITLES[p.area] || p.area} · ${DIFFICULTY[p.difficulty] || ''} · ${this.seed === 0 ? 'the source’s own numbers' : 'variant ' + this.seed}` }),
        parts.length > 1 ? h('p', { class: 'problem-part', text: `Part (${partLetter(at)}) of (a)–(${partLetter(parts.length - 1)})` }) : null,
        h('h3', { text: p.title }),
        h('p', { class: 'problem-tags', text: (p.tags || []).join(' · ') }),
        this.source),
      h('p', { class: 'statement', text: p.statement }),
      h('form', { class: 'answer-row', onsubmit: (e) => { e.preventDefault(); this.check(); } },
        ...this.answerFields(p, answerId),
        h('button', { type: 'submit', class: 'primary', text: 'Check' })),
      this.verdict,
      h('div', { class: 'problem-tools' },
        this.hintButton,
        h('button', { type: 'button', text: 'Show worked solution', onclick: () => this.showSolution() }),
        h('button', { type: 'button', text: 'New variant', onclick: () => this.newVariant() }),
        next ? h('button', { type: 'button', class: 'next-part', text: `Next part (${partLetter(at + 1)})`, onclick: () => this.openPart(next.id) }) : null,
        link ? h('a', { href: link, class: 'problem-link', text: 'Link to this problem' }) : null),
      this.hints,
      this.solution,
    );
    this.updateHintButton();
  }

  // A number: a text box. A choice: a radio group. An order: a list whose items move up and
  // down by buttons (keyboard and screen readers alike); its answer is the options' numbers.
  answerFields(p, id) {
    if (p.kind === 'choice')
      return [h('fieldset', { class: 'options' }, h('legend', { text: 'Your answer' }),
        p.options.map((o, i) => h('label', {}, h('input', { type: 'radio', name: id, value: i + 1 }), o)))];
    if (p.kind !== 'order') return [h('label', { for: id, text: `Your answer (${p.answer.unit_label || this.unitWord()})` }), this.answer];
    this.order = p.options.map((_, i) => i);
    this.list = h('ol', { class: 'order', 'aria-label': 'Your order' });
    this.drawOrder();
    return [h('p', { text: 'Your order (move items with the buttons):' }), this.list];
  }

  drawOrder(focus) {
    const n = this.order.length;
    const move = (at, by, name) => () => {
      const o = this.order;
      [o[at], o[at + by]] = [o[at + by], o[at]];
      this.drawOrder(`${o[at + by]}${name}`);
    };
    this.list.replaceChildren(...this.order.map((k, at) => {
      const t = this.p.options[k];
      const b = (by, name, text) => h('button', { type: 'button', class: 'small', disabled: at + by < 0 || at + by >= n, dataset: { move: k + name }, 'aria-label': `Move ${t} ${name}`, text, onclick: move(at, by, name) });
      return h('li', {}, h('span', { text: t }), b(-1, 'up', '↑'), b(1, 'down', '↓'));
    }));
    const f = focus && this.list.querySelector(`[data-move="${focus}"]`);
    if (f) (f.disabled ? f.parentNode.querySelector('button:enabled') : f).focus();
  }

  given() {
    if (this.p.kind === 'order') return this.order.map((k) => k + 1).join(',');
    if (this.p.kind !== 'choice') return this.answer.value;
    const c = this.el.querySelector('.options :checked');
    return c ? c.value : '';
  }

  // A yes/no answer's text is the answer itself: the label and the example never show it.
  yesNo() {
    return this.p.answer.unit === 'bool';
  }

  unitWord() {
    if (this.yesNo()) return 'yes or no';
    const t = this.p.answer.text || '';
    const m = t.match(/[^\d.,\s−-][^\d]*$/);
    return m ? m[0].trim() : 'a number';
  }

  example() {
    return this.p.answer.text ? this.p.answer.text.replace(/[\d.,]+/, '42') : '42';
  }

  updateHintButton() {
    const n = this.p.hints.length;
    // The last hint leads to the answer: opened before a correct answer it counts as the worked
    // solution (#28 item 5), and its button says so; a problem may charge for earlier ones.
    const cost = this.p.hint_cost > 0 ? ` (each costs ${Math.round(this.p.hint_cost * 100)} % of the marks)` : '';
    this.hintButton.textContent = this.hintsShown + 1 < n ? `Hint (${this.hintsShown + 1} of ${n})${cost}`
      : this.hintsShown < n ? `Last hint (${n} of ${n}): scores as the solution` : 'No more hints';
    this.hintButton.disabled = this.hintsShown >= n;
  }

  nextHint() {
    if (this.hintsShown >= this.p.hints.length) return;
    this.hints.append(h('li', { text: this.p.hints[this.hintsShown++] }));
    if (this.hintsShown === this.p.hints.length && !this.solvedHere) {
      this.solutionSeen = true;
      this.revealedBy ||= 'last hint';
    }
    else if (!this.solvedHere) this.hintsBeforeSolve = this.hintsShown;
    this.updateHintButton();
  }

  check() {
    let r = this.api.check(this.id, this.seed, this.given());
    this.verdict.replaceChildren();
    this.verdict.className = 'verdict';
    if (r.error) {
      this.verdict.classList.add('unreadable');
      this.verdict.append(h('p', { text: r.error.message }));
      return r;
    }
    const revealed = r.verdict === 'correct' && this.solutionSeen && !this.solvedHere;
    // Hints cost only what they helped earn: a wrong answer says nothing of them.
    const charged = !revealed && !this.solvedHere && this.p.hint_cost > 0 && r.score > 0 ? this.hintsBeforeSolve : 0;
    if (revealed) r = { ...r, score: 0 };
    else if (charged) r = { ...r, score: Math.max(0, r.score * (1 - this.p.hint_cost * charged)) };
    if (!revealed && r.verdict === 'correct') this.solvedHere = true;
    this.verdict.classList.add(r.verdict);
    this.verdict.dataset.verdict = r.verdict;
    if (revealed) this.verdict.dataset.solutionShown = 'true';
    else delete this.verdict.dataset.solutionShown;
    if (r.mistake) this.verdict.dataset.mistake = r.mistake;
    else delete this.verdict.dataset.mistake;
    // "Close" says which way, never by how much: a relative error hands out the answer.
    const feedback = r.verdict === 'close' && !r.mistake && !this.p.kind
      ? `A little ${r.given.value > r.expected.value ? 'high' : 'low'}. Check your rounding and the constants you used.`
      : r.feedback;
    this.verdict.append(
      h('p', { class: 'verdict-head', text: VERDICT_TEXT[r.verdict] || r.verdict }),
      h('p', { text: feedback }),
      h('p', { class: 'score', dataset: { score: r.score }, text: revealed
        ? `Score: no marks (solved with the ${this.revealedBy} shown)`
        : `Score: ${scoreWords(r.score)}${charged ? ` (${charged} ${charged === 1 ? 'hint' : 'hints'} used)` : SCORE_WHY[this.p.kind === 'order' && r.verdict === 'close' ? 'order' : scoreKind(r)] || ''}` }));
    if (r.verdict === 'correct') this.source.hidden = false;
    // A host page records progress from this event (it crosses the <napkin-problem> shadow
    // root; the iframe embed forwards it to its parent as a message).
    this.el.dispatchEvent(new CustomEvent('napkin-score', {
      bubbles: true,
      composed: true,
      detail: { problem: this.id, seed: this.seed, verdict: r.verdict, score: r.score, mistake: r.mistake || null, solutionShown: revealed, hintsUsed: this.hintsBeforeSolve },
    }));
    // Solved with the solution shown is not solved: no streak, and it comes back for review.
    if (this.opts.onResult) this.opts.onResult(revealed ? 'revealed' : r.verdict, this.id);
    return r;
  }

  showSolution() {
    if (!this.solvedHere) {
      this.solutionSeen = true;
      this.revealedBy ||= 'worked solution';
    }
    const items = this.p.solution.map((s, i) => {
      // The step in plain words as well as in math: its title and result as text.
      const li = h('li', { class: 'step' }, h('p', { class: 'step-title', text: `${i + 1}. ${s.title}${s.text ? ': ' + s.text : ''}` }));
      if (s.note !== undefined) li.append(h('p', { class: 'step-note', text: s.note }));
      else
        li.append(
          renderMath(s.formula, h('p', { class: 'math formula' })),
          renderMath(s.substituted, h('p', { class: 'math substituted' })),
          renderMath(s.result, h('p', { class: 'math result' })));
      return li;
    });
    this.solution.replaceChildren(
      h('h4', { text: 'Worked solution' }),
      h('ol', { class: 'steps' }, items),
      h('p', { class: 'solution-answer', text: 'Answer: ' + this.p.answer.text }));
    this.solution.hidden = false;
    this.source.hidden = false;
  }

  // The next part keeps the variant: the parts of a problem share one draw.
  openPart(id) {
    if (this.opts.onPart) this.opts.onPart(id, this.seed);
    else this.load(id, this.seed);
  }

  newVariant() {
    const seed = 1 + Math.floor(Math.random() * 9999);
    this.load(this.id, seed);
    if (this.opts.onSeed) this.opts.onSeed(seed);
  }
}

// The Practice tab: a practice mode per area and a mixed quiz, with progress and streaks.
export function buildPractice(api, panel, state, save) {
  const bank = api.problems().problems;
  let progress = loadProgress();
  const areas = [...new Set(bank.map((p) => p.area))];
  const stats = h('p', { class: 'progress', role: 'status' });
  const list = h('ul', { class: 'problem-list' });
  const areaSelect = h('select', { 'aria-label': 'Practice area' },
    h('option', { value: '', text: 'All areas' }),
    areas.map((a) => h('option', { value: a, text: AREA_TITLES[a] || a })));
  // Filters: difficulty and topic (the bank's tags), with the area.
  const difficultySelect = h('select', { 'aria-label': 'Practice difficulty' },
    h('option', { value: '', text: 'Any difficulty' }),
    Object.entries(DIFFICULTY).map(([v, t]) => h('option', { value: v, text: t })));
  const tags = [...new Set(bank.flatMap((p) => p.tags || []))].sort((a, b) => a.localeCompare(b));
  const tagSelect = h('select', { 'aria-label': 'Practice topic' },
    h('option', { value: '', text: 'Any topic' }),
    tags.map((t) => h('option', { value: t, text: t })));
  const offered = () => bank.filter((p) => (!areaSelect.value || p.area === areaSelect.value) &&
    (!difficultySelect.value || String(p.difficulty) === difficultySelect.value) &&
    (!tagSelect.value || (p.tags || []).includes(tagSelect.value)));
  const holder = h('div', { class: 'problem-holder' });
  let view = null;

  // The review queue: problems missed come back, as new variants, until answered right on
  // spaced days (web/progress.js).
  const reviewButton = h('button', { type: 'button', class: 'review-button', onclick: () => review() });
  const showStats = () => {
    const solved = bank.filter((p) => progress.solved[p.id]).length;
    stats.textContent = `Solved ${solved} of ${bank.length} · streak ${progress.streak} (best ${progress.best}) · ${progress.correct}/${progress.attempts} answers correct`;
    const due = dueReviews(progress).filter((id) => bank.some((p) => p.id === id));
    const waiting = Object.keys(progress.review || {}).length - due.length;
    reviewButton.textContent = due.length ? `Review what you missed (${due.length} due)` : 'Nothing due for review';
    reviewButton.disabled = !due.length;
    reviewButton.title = waiting > 0 ? `${waiting} more come back on later days` : '';
  };
  const review = () => {
    const due = dueReviews(progress).filter((id) => bank.some((p) => p.id === id));
    if (due.length) open(due[0], 1 + Math.floor(Math.random() * 9999));
  };
  const permalink = (id, seed) => `#tab=practice&problem=${encodeURIComponent(id)}&seed=${seed}`;
  const open = (id, seed) => {
    state.problem = id;
    state.seed = seed;
    save();
    const opts = {
      permalink,
      onSeed: (s) => { state.seed = s; save(); },
      onPart: open,
      onResult: (verdict, pid) => {
        progress = record(progress, pid, verdict, state.seed);
        saveProgress(progress);
        showStats();
        renderList();
      },
    };
    if (view) view.load(id, seed);
    else {
      view = new ProblemView(api, id, seed, opts);
      holder.replaceChildren(view.el);
    }
    for (const li of list.querySelectorAll('li[data-problem]')) li.classList.toggle('current', li.dataset.problem === id);
  };
  const item = (p, label) =>
    h('li', { dataset: { problem: p.id }, class: p.id === state.problem ? 'current' : '' },
      h('button', { type: 'button', onclick: () => open(p.id, 0) },
        h('span', { class: 'solved-mark', text: progress.solved[p.id] ? '✓ ' : '' }), label,
        h('span', { class: 'list-difficulty', text: ` · ${DIFFICULTY[p.difficulty] || ''}` })));
  // The parts of a multi-part problem sit together, lettered, where its first part is.
  const renderList = () => {
    const shown = offered();
    const done = new Set();
    const rows = [];
    for (const p of shown) {
      if (done.has(p.id)) continue;
      const parts = partsOf(bank, p.group);
      if (parts.length < 2) {
        rows.push(item(p, p.title));
        continue;
      }
      const kept = parts.filter((q) => shown.includes(q));
      kept.forEach((q) => done.add(q.id));
      rows.push(h('li', { class: 'problem-group' },
        h('p', { class: 'group-title', text: `${parts.length} parts` }),
        h('ul', {}, kept.map((q) => item(q, `(${partLetter(parts.indexOf(q))}) ${q.title}`)))));
    }
    list.replaceChildren(...rows);
    if (!rows.length) list.append(h('li', { class: 'none', text: 'No problem matches these filters.' }));
  };
  const quiz = () => {
    const pool = offered();
    if (!pool.length) return;
    const p = pool[Math.floor(Math.random() * pool.length)];
    open(p.id, 1 + Math.floor(Math.random() * 9999));
  };
  for (const s of [areaSelect, difficultySelect, tagSelect]) s.addEventListener('change', renderList);
  panel.append(h('div', { class: 'practice' },
    h('aside', { class: 'practice-side' },
      h('h3', { text: 'Practice' }),
      h('p', { class: 'summary', text: 'Problems from worked examples, papers and released models, with their own numbers first, then random variants. Answers accept units: 120 ms, 0.12 s, 214.7 GB, 15.8%, 3/19.' }),
      areaSelect, difficultySelect, tagSelect,
      h('button', { type: 'button', class: 'primary', text: 'Random problem (mixed quiz)', onclick: quiz }),
      reviewButton,
      stats, list),
    holder));
  renderList();
  showStats();
  const seedOf = () => (Number.isFinite(Number(state.seed)) ? Number(state.seed) : 0);
  const start = bank.find((p) => p.id === state.problem) ? state.problem : bank[0].id;
  open(start, seedOf());
  // A problem link pasted into the open page (or Back / Forward): open what it names.
  return {
    follow: () => {
      if (!bank.some((p) => p.id === state.problem)) return;
      if (view && view.id === state.problem && view.seed === seedOf()) return;
      open(state.problem, seedOf());
    },
  };
}
