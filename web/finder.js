// Find a calculator by typing: a search box in the header (press "/" anywhere) over titles,
// summaries, ids, and every input's and output's label and help, plus the Plan card (the
// registry's layout search). Up / Down move through the matches, Enter opens one, Escape closes.
import { h } from './dom.js';

// Words people type for what the registry says otherwise: each query word also matches any of
// its synonyms. Keep this short; it is the only such list.
export const SYNONYMS = {
  allreduce: ['all-reduce', 'collective'],
  nccl: ['collective', 'all-reduce'],
  vram: ['memory', 'hbm'],
  quantization: ['int8', 'int4', 'weight bytes', 'bytes per weight'],
  plan: ['layout search'],
};

// What a finder entry is searched by, weighted: its title most, then its summary and id, then
// its inputs' and outputs' words.
function fields(e) {
  const io = [...(e.inputs || []), ...(e.outputs || [])];
  return [
    [e.title.toLowerCase(), 4],
    [`${e.summary || ''} ${e.id}`.toLowerCase(), 2],
    [io.map((x) => `${x.label} ${x.help || ''}`).join(' ').toLowerCase(), 1],
  ];
}

// The entries the finder offers: every estimator, and the Plan card (`plan: true`).
export function entries(registry) {
  const list = [...registry.estimators];
  const s = registry.search;
  if (s) list.push({ id: s.estimator, title: s.title, summary: s.summary, inputs: s.inputs, outputs: s.outputs, plan: true });
  return list;
}

export function matches(registry, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const scored = [];
  for (const e of entries(registry)) {
    const f = fields(e);
    let score = 0;
    const every = words.every((w) => {
      const forms = [w, ...(SYNONYMS[w] || [])];
      // The word itself counts more than a synonym.
      const best = Math.max(...forms.map((form, k) => Math.max(...f.map(([text, weight]) => (text.includes(form) ? weight * (k ? 0.5 : 1) : 0)))));
      score += best;
      return best > 0;
    });
    if (every) scored.push([score, e]);
  }
  return scored.sort((a, b) => b[0] - a[0]).map(([, e]) => e);
}

export class Finder {
  constructor(registry, box, onPick) {
    this.registry = registry;
    this.onPick = onPick;
    this.input = h('input', {
      type: 'search', id: 'find', placeholder: 'Find a calculator  ( / )', autocomplete: 'off',
      role: 'combobox', 'aria-expanded': 'false', 'aria-controls': 'find-list', 'aria-autocomplete': 'list',
      'aria-label': 'Find a calculator by name, topic or id',
    });
    this.list = h('ul', { id: 'find-list', role: 'listbox', class: 'find-list', 'aria-label': 'Matching calculators', hidden: true });
    this.active = -1;
    box.replaceChildren(this.input, this.list);
    this.input.addEventListener('input', () => this.render());
    this.input.addEventListener('keydown', (e) => this.key(e));
    this.input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
    addEventListener('keydown', (e) => {
      const t = e.target;
      const typing = t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
      if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        this.input.focus();
      }
    });
  }

  render() {
    this.found = matches(this.registry, this.input.value).slice(0, 8);
    this.active = this.found.length ? 0 : -1;
    this.list.replaceChildren(...this.found.map((e, i) =>
      h('li', { role: 'option', id: `find-opt-${i}`, 'aria-selected': String(i === this.active), onmousedown: (ev) => { ev.preventDefault(); this.pick(e); } },
        h('span', { class: 'find-title', text: e.title }), ' ', e.plan ? h('span', { class: 'find-kind', text: 'layout search' }) : h('code', { text: e.id }))));
    if (!this.found.length && this.input.value.trim())
      this.list.append(h('li', { class: 'find-none', text: 'No calculator matches' }));
    const open = !!this.input.value.trim();
    this.list.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    this.mark();
  }

  mark() {
    [...this.list.querySelectorAll('[role=option]')].forEach((li, i) => li.setAttribute('aria-selected', String(i === this.active)));
    if (this.active >= 0) this.input.setAttribute('aria-activedescendant', `find-opt-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
  }

  key(e) {
    const n = (this.found || []).length;
    if (e.key === 'ArrowDown' && n) this.active = (this.active + 1) % n;
    else if (e.key === 'ArrowUp' && n) this.active = (this.active - 1 + n) % n;
    else if (e.key === 'Enter' && this.active >= 0) this.pick(this.found[this.active]);
    else if (e.key === 'Escape') this.close(true);
    else return;
    e.preventDefault();
    this.mark();
  }

  pick(e) {
    this.close(false);
    this.input.value = '';
    this.onPick(e);
  }

  close(clear) {
    if (clear) this.input.value = '';
    this.list.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
  }
}
