// The scenario bar (docs/architecture.md, The scenario): one model, one accelerator, one network link and the layout's
// degrees, chosen once and followed by every card that has an input of that meaning. What it
// offers comes from the registry (`scenario.kinds`, `scenario.layout`, the presets of each
// kind); nothing here knows an estimator or an input by name.
import { h } from './dom.js';

let uid = 0;

export class ScenarioBar {
  // shared: { kind → preset id, input name → text } as the permalink holds it.
  // onChange(shared) runs after every valid change.
  constructor(api, registry, shared, onChange) {
    this.api = api;
    this.spec = registry.scenario || { kinds: [], layout: [] };
    this.presets = registry.presets.filter((p) => !p.estimators.length);
    this.onChange = onChange;
    this.selects = {};
    this.fields = {};
    this.errors = {};
    const id = `scenario-${++uid}`;
    this.summary = h('p', { class: 'bar-summary', id: id + '-summary' });
    const row = h('div', { class: 'bar-fields' });
    for (const k of this.spec.kinds) {
      const list = this.presets.filter((p) => p.kind === k.kind);
      if (!list.length) continue;
      const sid = `${id}-${k.kind}`;
      // Presets the core puts in a group (vendor figures, worked examples' figures) are shown
      // in sections of that name, in the order the core lists them.
      const groups = [];
      for (const p of list) {
        const g = p.group || '';
        let at = groups.find((x) => x.name === g);
        if (!at) groups.push((at = { name: g, items: [] }));
        at.items.push(h('option', { value: p.id, text: p.label }));
      }
      const select = h('select', { id: sid, 'aria-describedby': sid + '-hint' },
        h('option', { value: '', text: 'Each card’s own' }),
        groups.flatMap((g) => (g.name ? [h('optgroup', { label: g.name }, g.items)] : g.items)));
      select.addEventListener('change', () => this.changed());
      this.selects[k.kind] = select;
      row.append(h('div', { class: 'bar-field' },
        h('label', { for: sid, text: k.label }), select,
        h('small', { class: 'hint', id: sid + '-hint', text: k.help })));
    }
    for (const spec of this.spec.layout) {
      const fid = `${id}-${spec.name}`;
      const field = h('input', {
        type: 'text', id: fid, inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
        placeholder: 'card’s own', 'aria-describedby': `${fid}-hint ${fid}-err`,
      });
      field.addEventListener('input', () => this.changed());
      this.fields[spec.name] = field;
      this.errors[spec.name] = h('span', { class: 'field-error', id: fid + '-err' });
      row.append(h('div', { class: 'bar-field narrow' },
        h('label', { for: fid, text: spec.label }), field,
        h('small', { class: 'hint', id: fid + '-hint', text: spec.help }), this.errors[spec.name]));
    }
    this.clearButton = h('button', { type: 'button', class: 'small', text: 'Clear the scenario', onclick: () => this.set({}, true) });
    this.el = h('section', { class: 'scenario-bar', 'aria-labelledby': id + '-title' },
      h('h3', { id: id + '-title', class: 'bar-title', text: 'Scenario for every card' }),
      h('p', { class: 'hint', text: 'Pick a model, an accelerator, a link or a layout once: every card with an input of that meaning follows it. A value you type into a card stays that card’s own.' }),
      row, h('div', { class: 'bar-end' }, this.summary, this.clearButton));
    this.set(shared, false);
  }

  // Puts a permalink's (or an empty) scenario into the controls.
  set(shared, notify) {
    for (const [kind, select] of Object.entries(this.selects)) {
      const v = shared[kind];
      select.value = this.presets.some((p) => p.id === v && p.kind === kind) ? v : '';
    }
    for (const [name, field] of Object.entries(this.fields)) field.value = shared[name] || '';
    if (notify) this.changed();
    else this.check();
  }

  // A layout degree: a whole number in the core's declared range, or empty (not set).
  degree(spec) {
    const text = this.fields[spec.name].value.trim();
    if (!text) return { value: null };
    const r = this.api.parse(text, '');
    const v = r && typeof r.value === 'number' ? r.value : NaN;
    if (!Number.isFinite(v) || v < spec.min || v > spec.max || (spec.integer && !Number.isInteger(v)))
      return { error: `${spec.label}: “${text}” is not allowed; use a whole number from ${spec.min} to ${this.api.format(spec.max, '', { digits: 6 })}.` };
    return { value: v };
  }

  // Checks the layout fields; returns the valid scenario or null.
  check() {
    let ok = true;
    const shared = Object.create(null);
    for (const [kind, select] of Object.entries(this.selects)) if (select.value) shared[kind] = select.value;
    for (const spec of this.spec.layout) {
      const d = this.degree(spec);
      const field = this.fields[spec.name];
      this.errors[spec.name].textContent = d.error || '';
      if (d.error) {
        field.setAttribute('aria-invalid', 'true');
        ok = false;
      } else field.removeAttribute('aria-invalid');
      if (d.value !== null && !d.error) shared[spec.name] = field.value.trim();
    }
    this.summary.textContent = this.describe(shared) || 'No scenario: each card uses its own example.';
    this.clearButton.hidden = !Object.keys(shared).length;
    return ok ? shared : null;
  }

  changed() {
    const shared = this.check();
    if (shared) this.onChange(shared);
  }

  // "Llama 3 70B · NVIDIA H100 SXM · TP 8": what the cards follow.
  describe(shared) {
    const parts = [];
    for (const k of this.spec.kinds) {
      const p = this.presets.find((x) => x.id === shared[k.kind]);
      if (p) parts.push(p.label);
    }
    for (const spec of this.spec.layout) if (shared[spec.name]) parts.push(`${spec.label} = ${shared[spec.name]}`);
    return parts.join(' · ');
  }

  // The values cards take: each chosen preset's values under their meaning, and each degree.
  values(shared) {
    const values = Object.create(null);
    for (const k of this.spec.kinds) {
      const p = this.presets.find((x) => x.id === shared[k.kind]);
      if (p) Object.assign(values, p.values);
    }
    for (const spec of this.spec.layout) if (shared[spec.name]) values[spec.name] = this.api.parse(shared[spec.name], '').value;
    return { values, label: this.describe(shared) };
  }
}
