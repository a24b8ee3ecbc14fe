// Find an estimator by typing: a search box in the header (press "/" anywhere) over titles,
// summaries and ids. Up / Down move through the matches, Enter opens one, Escape closes.
import { h } from './dom.js';

export function matches(registry, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const scored = [];
  for (const e of registry.estimators) {
    const title = e.title.toLowerCase();
    const hay = `${title} ${e.summary.toLowerCase()} ${e.id.toLowerCase()}`;
    if (!words.every((w) => hay.includes(w))) continue;
    const score = words.reduce((s, w) => s + (title.includes(w) ? 2 : 0) + (e.id.includes(w) ? 1 : 0), 0);
    scored.push([score, e]);
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
        h('span', { class: 'find-title', text: e.title }), ' ', h('code', { text: e.id }))));
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
    this.onPick(e.id);
  }

  close(clear) {
    if (clear) this.input.value = '';
    this.list.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
  }
}
