// One estimator's card, generated from its registry metadata: presets, unit-aware inputs with
// inline errors, live results, the derivation as math, and the estimator's charts. Nothing in
// here knows any particular estimator.
import { h, perFrame } from './dom.js';
import { renderMath } from './math.js';
import { Chart } from './chart.js';
import { JsonTableEditor, columnsOf } from './json-table.js';

const PRESET_KINDS = [
  ['model', 'Model'],
  ['gpu', 'Accelerator'],
  ['link', 'Link'],
  ['scenario', 'Worked example'],
];

// Text for an input field: readable, and read back by the core's unit parser unchanged.
export function inputText(api, value, spec) {
  if (spec.kind === 'boolean') return value ? 'true' : 'false';
  if (spec.kind !== 'number') return String(value ?? '');
  if (spec.unit === '$') return api.format(value, '', { digits: 10 });
  return api.format(value, spec.unit, { digits: 10 });
}

export function presetsFor(est, presets) {
  const names = new Set(est.inputs.map((i) => i.name));
  return presets.filter((p) =>
    p.estimators.length ? p.estimators.includes(est.id) : Object.keys(p.values).some((k) => names.has(k)),
  );
}

export class EstimatorCard {
  // ctx: { api, fmt(v, unit, digits), presets, charts, initial: {name: text}, onChange(id, changed) }
  constructor(ctx, est) {
    this.ctx = ctx;
    this.est = est;
    this.defaults = {};
    for (const spec of est.inputs) this.defaults[spec.name] = inputText(ctx.api, spec.example, spec);
    this.texts = { ...this.defaults, ...(ctx.initial || {}) };
    this.fields = {};
    this.errors = {};
    this.outputs = {};
    this.last = null;
    this.schedule = perFrame(() => this.recompute());
    this.el = this.render();
  }

  render() {
    const { est } = this;
    const form = h('form', { class: 'card', dataset: { estimator: est.id }, onsubmit: (e) => e.preventDefault(), novalidate: true });
    form.append(
      h('header', { class: 'card-head' },
        h('h3', { text: est.title }),
        h('code', { class: 'card-id', text: est.id }),
        h('p', { class: 'summary', text: est.summary }),
        h('p', { class: 'cite', text: 'Source: ' + est.citation })),
    );
    const presetRow = this.renderPresets();
    if (presetRow) form.append(presetRow);
    const body = h('div', { class: 'card-body' });
    const inputs = h('fieldset', { class: 'inputs' }, h('legend', { text: 'Inputs' }));
    for (const spec of est.inputs) inputs.append(this.renderInput(spec));
    inputs.append(h('button', { type: 'button', class: 'reset', text: 'Reset to example', onclick: () => this.reset() }));
    this.formError = h('p', { class: 'form-error', role: 'alert', hidden: true });
    const results = h('section', { class: 'results', 'aria-live': 'polite' }, h('h4', { text: 'Results' }), this.formError);
    const table = h('dl', { class: 'outputs' });
    for (const o of est.outputs) {
      const value = h('dd', { dataset: { output: o.name } });
      this.outputs[o.name] = value;
      table.append(h('div', { class: 'output' }, h('dt', { text: o.label, title: o.help || o.name }), value));
    }
    this.warnings = h('ul', { class: 'warnings' });
    results.append(table, this.warnings);
    body.append(inputs, results);
    form.append(body);
    this.steps = h('ol', { class: 'steps' });
    this.derivation = h('details', { class: 'derivation', ontoggle: () => this.renderSteps() },
      h('summary', { text: 'Show derivation' }), this.steps);
    form.append(this.derivation);
    const move = (name, x) => {
      const spec = est.inputs.find((i) => i.name === name);
      const text = inputText(this.ctx.api, x, spec);
      this.setTexts({ [name]: text });
      this.edit(name, text);
    };
    this.charts = this.ctx.charts.map((spec) => new Chart(this.ctx.api, spec, est, this.ctx.fmt, move));
    if (this.charts.length) form.append(h('div', { class: 'charts' }, this.charts.map((c) => c.el)));
    return form;
  }

  renderPresets() {
    const mine = presetsFor(this.est, this.ctx.presets);
    if (!mine.length) return null;
    const row = h('div', { class: 'presets' });
    this.presetSource = h('p', { class: 'preset-source' });
    for (const [kind, label] of PRESET_KINDS) {
      const list = mine.filter((p) => p.kind === kind);
      if (!list.length) continue;
      const select = h('select', { 'aria-label': `${label} preset`, dataset: { presetKind: kind } },
        h('option', { value: '', text: `${label}…` }),
        list.map((p) => h('option', { value: p.id, text: p.label })));
      select.addEventListener('change', () => {
        const p = list.find((x) => x.id === select.value);
        if (p) this.applyPreset(p);
      });
      row.append(h('label', { class: 'preset' }, select));
    }
    row.append(this.presetSource);
    return row;
  }

  renderInput(spec) {
    const id = `in-${this.est.id}-${spec.name}`.replace(/[^A-Za-z0-9_-]/g, '-');
    const errId = id + '-err';
    let field;
    let extra = null;
    if (spec.kind === 'boolean') {
      field = h('input', { type: 'checkbox', id, name: spec.name });
      field.checked = this.texts[spec.name] === 'true';
      field.addEventListener('change', () => this.edit(spec.name, field.checked ? 'true' : 'false'));
    } else if (spec.kind === 'choice') {
      field = h('select', { id, name: spec.name }, spec.choices.map((c) => h('option', { value: c, text: c })));
      field.value = this.texts[spec.name];
      field.addEventListener('change', () => this.edit(spec.name, field.value));
    } else if (spec.kind === 'text') {
      field = h('textarea', { id, name: spec.name, rows: 4, spellcheck: 'false', 'aria-describedby': errId });
      field.value = this.texts[spec.name];
      // A JSON list of objects also gets a row editor; both stay in step.
      const table = new JsonTableEditor(spec.label, (text) => {
        field.value = text;
        this.edit(spec.name, text);
      });
      table.setText(field.value);
      (this.tables ||= {})[spec.name] = table;
      field.addEventListener('input', () => {
        table.setText(field.value);
        this.edit(spec.name, field.value);
      });
      extra = table.el;
    } else {
      field = h('input', {
        type: 'text', id, name: spec.name, inputmode: 'text', autocomplete: 'off', spellcheck: 'false',
        'aria-describedby': errId, title: 'Allowed: ' + spec.allowed,
      });
      field.value = this.texts[spec.name];
      field.addEventListener('input', () => this.edit(spec.name, field.value));
    }
    this.fields[spec.name] = field;
    const err = h('span', { class: 'field-error', id: errId, role: 'alert' });
    this.errors[spec.name] = err;
    const hint = spec.help ? h('small', { class: 'hint', text: spec.help }) : null;
    const cls = spec.kind === 'boolean' ? 'field check' : 'field';
    return h('div', { class: extra ? cls + ' wide' : cls },
      h('label', { for: id, text: spec.label }),
      extra, field, hint, err);
  }

  edit(name, text) {
    this.texts[name] = text;
    this.changed();
    this.schedule();
  }

  changed() {
    const diff = {};
    for (const [k, v] of Object.entries(this.texts)) if (v !== this.defaults[k]) diff[k] = v;
    this.ctx.onChange(this.est.id, diff);
  }

  setTexts(values) {
    for (const spec of this.est.inputs) {
      if (!(spec.name in values)) continue;
      const text = values[spec.name];
      this.texts[spec.name] = text;
      const f = this.fields[spec.name];
      if (spec.kind === 'boolean') f.checked = text === 'true';
      else f.value = text;
      if (this.tables && this.tables[spec.name]) this.tables[spec.name].setText(text);
    }
  }

  applyPreset(p) {
    const texts = {};
    for (const spec of this.est.inputs)
      if (spec.name in p.values) texts[spec.name] = inputText(this.ctx.api, p.values[spec.name], spec);
    this.setTexts(texts);
    this.presetSource.textContent = `${p.label}: ${p.source}`;
    this.changed();
    this.recompute();
  }

  reset() {
    this.setTexts(this.defaults);
    this.presetSource && (this.presetSource.textContent = '');
    this.changed();
    this.recompute();
  }

  inputsForRun() {
    const inputs = {};
    for (const spec of this.est.inputs) {
      const t = this.texts[spec.name];
      inputs[spec.name] = spec.kind === 'boolean' ? t === 'true' : t;
    }
    return inputs;
  }

  recompute() {
    const t0 = performance.now();
    const r = this.run();
    // User Timing entries let `make bench` read the cost of one keystroke (run + redraw).
    performance.measure('napkin-recompute', { start: t0, detail: this.est.id });
    return r;
  }

  run() {
    const r = this.ctx.api.run(this.est.id, this.inputsForRun());
    for (const e of Object.values(this.errors)) e.textContent = '';
    for (const f of Object.values(this.fields)) f.removeAttribute('aria-invalid');
    if (r.error) {
      this.el.classList.add('stale');
      const target = r.error.input && this.errors[r.error.input];
      if (target) {
        target.textContent = r.error.message;
        this.fields[r.error.input].setAttribute('aria-invalid', 'true');
        this.formError.hidden = true;
      } else {
        this.formError.textContent = r.error.message;
        this.formError.hidden = false;
      }
      return r;
    }
    this.el.classList.remove('stale');
    this.formError.hidden = true;
    this.last = r;
    this.showOutputs(r);
    if (this.derivation.open) this.renderSteps();
    // The first time, numbers go on screen before the charts are drawn (a frame later);
    // after that a keystroke redraws both in the same frame.
    if (this.chartsDrawn) for (const c of this.charts) c.update(r.inputs, r.outputs);
    else if (!this.chartsPending) {
      this.chartsPending = true;
      requestAnimationFrame(() => {
        this.chartsDrawn = true;
        this.chartsPending = false;
        if (this.last) for (const c of this.charts) c.update(this.last.inputs, this.last.outputs);
      });
    }
    return r;
  }

  showOutputs(r) {
    const { fmt } = this.ctx;
    for (const o of this.est.outputs) {
      const el = this.outputs[o.name];
      const v = r.outputs[o.name];
      el.replaceChildren();
      if (o.kind === 'number') {
        el.textContent = fmt(v, o.unit, 4);
        el.title = `${v} ${o.unit}`.trim();
        el.dataset.value = String(v);
      } else if (o.kind === 'boolean') {
        el.textContent = v ? 'yes' : 'no';
        el.dataset.value = String(v);
      } else if (o.kind === 'array') {
        el.append(this.renderArray(v, r.inputs));
      } else {
        el.textContent = String(v);
      }
    }
    this.warnings.replaceChildren(...r.warnings.map((w) => h('li', { text: w })));
  }

  renderArray(rows, inputs) {
    if (!Array.isArray(rows) || !rows.length) return document.createTextNode('—');
    const keys = columnsOf(rows);
    const table = h('table', { class: 'mini' },
      h('thead', {}, h('tr', {}, keys.map((k) => h('th', { text: k })))),
      h('tbody', {}, rows.map((row) => h('tr', {}, keys.map((k) => h('td', { text: this.cell(k, row[k]) }))))));
    const bar = this.budgetBar(rows, inputs);
    return bar ? h('div', {}, bar, table) : table;
  }

  // Rows with a latency against an estimator's `budget` input: the latency budget as a bar.
  budgetBar(rows, inputs) {
    const budget = inputs && inputs.budget;
    if (typeof budget !== 'number' || !rows.every((r) => typeof r.latency === 'number')) return null;
    const total = rows.reduce((a, r) => a + r.latency, 0);
    const scale = Math.max(budget, total) || 1;
    const over = total > budget;
    const segments = rows.map((r, i) =>
      h('span', {
        class: `segment c${i % 6}`,
        style: `width:${(100 * r.latency) / scale}%`,
        title: `${r.name ?? 'stage ' + (i + 1)}: ${this.ctx.fmt(r.latency, 's', 3)}`,
        text: `${r.name ?? i + 1} ${this.ctx.fmt(r.latency, 's', 3)}`,
      }));
    return h('div', { class: over ? 'budget-bar over' : 'budget-bar', role: 'img',
      'aria-label': `Latency ${this.ctx.fmt(total, 's', 3)} of a ${this.ctx.fmt(budget, 's', 3)} budget` },
      h('div', { class: 'track' }, segments,
        h('span', { class: 'budget-mark', style: `left:${(100 * budget) / scale}%`, title: 'budget' })),
      h('p', { class: 'budget-legend', text: `${this.ctx.fmt(total, 's', 4)} of ${this.ctx.fmt(budget, 's', 4)} budget — ${over ? 'over by ' + this.ctx.fmt(total - budget, 's', 3) : this.ctx.fmt(budget - total, 's', 3) + ' to spare'}` }));
  }

  cell(key, v) {
    if (v === undefined) return '';
    if (typeof v !== 'number') return String(v);
    const unit = /latency|time|budget|inference|wait/.test(key) ? 's' : '';
    return this.ctx.fmt(v, unit, 4);
  }

  renderSteps() {
    if (!this.derivation.open || !this.last) return;
    const items = this.last.steps.map((s, i) => {
      const li = h('li', { class: 'step' }, h('p', { class: 'step-title', text: `${i + 1}. ${s.title}` }));
      if (s.note !== undefined) {
        li.append(h('p', { class: 'step-note', text: s.note }));
        return li;
      }
      li.append(
        renderMath(s.formula, h('p', { class: 'math formula' })),
        renderMath(s.substituted, h('p', { class: 'math substituted' })),
        renderMath(s.result, h('p', { class: 'math result' })),
      );
      return li;
    });
    this.steps.replaceChildren(...items);
  }
}
