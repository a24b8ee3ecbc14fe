// One estimator's card, generated from its registry metadata: presets, unit-aware inputs with
// inline errors, live results, the derivation as math, the estimator's charts, export, a pinned
// result to compare against, and its docs section. Nothing in here knows any particular
// estimator.
import { h, perFrame } from './dom.js';
import { JsonTableEditor } from './json-table.js';
import { download, toCsv, humanize, withCode } from './export.js';

// The chart and math code load after the first results are on screen (docs/architecture.md,
// Budgets: the first screen carries what the numbers need; charts were drawn a frame after them
// anyway, and a derivation is folded until asked for). One import each, shared by every card.
let chartCode = null, mathCode = null;
const loadCharts = () => chartCode || (chartCode = import('./chart.js'));
const loadMath = () => mathCode || (mathCode = import('./math.js'));
const STALE_CHART = 'Fix the inputs above to redraw this chart.';

// Every chart's width is read in one pass and then applied: alternating reads and writes
// would force a layout per chart.
export function resizeCharts(charts) {
  const widths = charts.map((ch) => ch.measure());
  charts.forEach((ch, i) => ch.resize(widths[i]));
}

const PRESET_KINDS = [
  ['model', 'Model'],
  ['gpu', 'Accelerator'],
  ['link', 'Link'],
  ['scenario', 'Worked example'],
];

// Input groups the card folds into a disclosure, with what its summary says.
const FOLDS = {
  'model.detail': 'More of the model: biases, norms, positions, latent attention, windows',
  'model.moe': 'Mixture of experts',
};

// Text for an input field: readable, and read back by the core's unit parser unchanged.
export function inputText(api, value, spec) {
  if (spec.kind === 'boolean') return value ? 'true' : 'false';
  if (spec.kind !== 'number') return String(value ?? '');
  if (spec.unit === '$') return api.format(value, '', { digits: 10 });
  const text = api.format(value, spec.unit, { digits: 10 });
  // A capacity in binary units reads as vendors write it: 80 GiB, not 85.89934592 GB.
  const binary = api.format(value, spec.unit, { digits: 10, binary: true });
  return binary.length < text.length ? binary : text;
}

// A scenario preset names its estimators and sets inputs by name. A model, accelerator or link
// preset fills only the inputs whose declared meaning (`preset_key`) it carries.
export function presetFills(est, p) {
  const fills = {};
  for (const spec of est.inputs) {
    const key = p.estimators.length ? spec.name : spec.preset_key || spec.name;
    if (Object.hasOwn(p.values, key)) fills[spec.name] = p.values[key];
  }
  return fills;
}

export function presetsFor(est, presets) {
  return presets.filter((p) =>
    p.estimators.length ? p.estimators.includes(est.id) : Object.keys(presetFills(est, p)).length > 0,
  );
}

let uid = 0;

export class EstimatorCard {
  // ctx: { api, fmt(v, unit, digits), presets, charts, initial: {name: text}, onChange(id, changed),
  //        preset (id to restore), open (derivation open), docs (a promise of its docs section's HTML), onState(id, {preset, open}) }
  constructor(ctx, est) {
    this.ctx = ctx;
    this.est = est;
    this.uid = ++uid;
    this.defaults = {};
    for (const spec of est.inputs) this.defaults[spec.name] = inputText(ctx.api, spec.example, spec);
    // `base` is where the card starts: its example, with the page's scenario laid over it
    // (ctx.shared). The permalink keeps only what differs from it.
    this.shared = { values: {}, label: '' };
    this.sharedKeys = [];
    this.base = this.defaults;
    if (ctx.shared) this.takeShared(ctx.shared);
    this.texts = { ...this.base, ...(ctx.initial || {}) };
    this.fields = {};
    this.errors = {};
    this.outputs = {};
    this.pins = {};
    this.pinned = null;
    this.last = null;
    this.chosen = {};  // preset kind → id, as the selects show them
    this.scenarioKeys = [];
    this.schedule = perFrame(() => this.recompute());
    this.el = this.render();
    this.showShared();
    this.showChosen(ctx.preset);
    if (ctx.open) this.derivation.open = true;
  }

  render() {
    const { est } = this;
    const headId = `card-${this.uid}`;
    const form = h('form', { class: 'card', dataset: { estimator: est.id }, 'aria-labelledby': headId, onsubmit: (e) => e.preventDefault(), novalidate: true });
    form.append(
      h('header', { class: 'card-head' },
        h('h3', { id: headId, tabindex: '-1', text: est.title }),
        h('code', { class: 'card-id', text: est.id }),
        h('p', { class: 'summary', text: est.summary }),
        h('p', { class: 'cite', text: 'Source: ' + est.citation })),
    );
    const presetRow = this.renderPresets();
    if (presetRow) form.append(presetRow);
    const body = h('div', { class: 'card-body' });
    const inputs = h('fieldset', { class: 'inputs' }, h('legend', { text: 'Inputs' }));
    // Rarely changed groups (a model's finer details, its experts) fold away; a preset or an
    // error opens them.
    const folds = {};
    for (const spec of est.inputs) {
      const el = this.renderInput(spec);
      const label = FOLDS[spec.group];
      if (!label) {
        inputs.append(el);
        continue;
      }
      if (!folds[spec.group]) {
        folds[spec.group] = h('div', { class: 'fold-body' });
        inputs.append(h('details', { class: 'fold' }, h('summary', { text: label }), folds[spec.group]));
      }
      folds[spec.group].append(el);
    }
    this.resetButton = h('button', { type: 'button', class: 'reset', text: 'Reset to example', onclick: () => this.reset() });
    inputs.append(this.resetButton);
    this.sharedNote = h('div', { class: 'shared-note', hidden: true });
    inputs.insertBefore(this.sharedNote, inputs.children[1]);
    this.formError = h('p', { class: 'form-error', hidden: true });
    const results = h('section', { class: 'results', 'aria-label': `Results of ${est.title}` }, h('h4', { text: 'Results' }), this.formError);
    const table = h('dl', { class: 'outputs' });
    for (const o of est.outputs) {
      if (o.hidden) continue;  // kept for tests and the errata, not for the card
      const value = h('dd', { dataset: { output: o.name } });
      const pin = h('dd', { class: 'pin', hidden: true });
      this.outputs[o.name] = value;
      this.pins[o.name] = pin;
      const label = h('dt', { text: o.label });
      const help = o.help ? h('dd', { class: 'out-help', text: o.help }) : null;
      table.append(h('div', { class: 'output', dataset: { outputBox: o.name } }, label, value, pin, help));
    }
    this.warnings = h('ul', { class: 'warnings' });
    this.pinButton = h('button', { type: 'button', class: 'small', text: 'Pin these results', onclick: () => this.togglePin() });
    const tools = h('div', { class: 'card-tools' },
      h('button', { type: 'button', class: 'small', text: 'Predict first', onclick: () => this.predict(results) }),
      this.pinButton,
      h('button', { type: 'button', class: 'small', text: 'Export JSON', onclick: () => this.exportJson() }),
      h('button', { type: 'button', class: 'small', text: 'Export CSV', onclick: () => this.exportCsv() }));
    results.append(table, this.warnings, tools);
    body.append(inputs, results);
    form.append(body);
    this.steps = h('ol', { class: 'steps' });
    this.derivation = h('details', { class: 'derivation', ontoggle: () => { this.renderSteps(); this.stateChanged(); } },
      h('summary', { text: 'Show derivation' }), this.steps);
    form.append(this.derivation);
    const docBody = h('div', { class: 'doc-body' });
    const docs = h('details', { class: 'docs', ontoggle: () => {
      if (!docs.open || docBody.firstChild) return;
      docBody.append(h('p', { class: 'loading', text: 'Loading…' }));
      this.docNodes().then((nodes) => docBody.replaceChildren(...nodes));
    } }, h('summary', { text: 'Formula, sources and assumptions' }), docBody);
    form.append(docs);
    const move = (name, x) => {
      const spec = est.inputs.find((i) => i.name === name);
      const text = inputText(this.ctx.api, x, spec);
      this.setTexts({ [name]: text });
      this.edit(name, text);
    };
    this.moveTo = move;
    this.charts = [];  // made by drawCharts() once chart.js is in
    this.chartBox = this.ctx.charts.length ? h('div', { class: 'charts' }) : null;
    if (this.chartBox) form.append(this.chartBox);
    return form;
  }

  // The card's docs: its section of docs/*.md rendered at build time (vite.config.mjs), loaded
  // on first use by ctx.docs(); the registry's own doc strings where there is none (an embedded
  // calculator, a failed load).
  async docNodes() {
    const { est } = this;
    const html = this.ctx.docs ? await this.ctx.docs().catch(() => undefined) : undefined;
    if (html) {
      const parsed = new DOMParser().parseFromString(html, 'text/html');
      const nodes = [...parsed.body.childNodes];
      for (const n of nodes) if (n.querySelectorAll) for (const hd of n.querySelectorAll('h1,h2,h3,h4')) hd.replaceWith(h('p', { class: 'doc-head', text: hd.textContent }));
      return nodes;
    }
    const item = (x, extra) => h('li', {}, h('strong', { text: x.label }), ` — ${x.help}`, extra ? ` (${extra})` : '');
    return [
      h('p', { text: est.summary }),
      h('p', {}, h('strong', { text: 'Source. ' }), est.citation),
      h('p', {}, h('strong', { text: 'Formulas. ' }), 'Every step, with the values substituted, is under “Show derivation”.'),
      h('p', { class: 'doc-head', text: 'Inputs' }),
      h('ul', {}, est.inputs.map((i) => item(i, i.kind === 'number' ? 'allowed: ' + i.allowed.split(i.name).join('value') : ''))),
      h('p', { class: 'doc-head', text: 'Results' }),
      h('ul', {}, est.outputs.filter((o) => !o.hidden).map((o) => item(o))),
      h('p', { class: 'hint' }, 'The full notes, with assumptions and limits, are ', h('code', { text: est.doc }), ' in the Napkin repository.'),
    ];
  }

  renderPresets() {
    const mine = presetsFor(this.est, this.ctx.presets);
    this.presetSelects = {};
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
      this.presetSelects[kind] = select;
      row.append(h('label', { class: 'preset' }, select));
    }
    row.append(this.presetSource);
    return row;
  }

  renderInput(spec) {
    const id = `in-${this.est.id}-${spec.name}`.replace(/[^A-Za-z0-9_-]/g, '-');
    const errId = id + '-err';
    const hintId = id + '-hint';
    const described = spec.help ? `${hintId} ${errId}` : errId;
    let field;
    let extra = null;
    if (spec.kind === 'boolean') {
      field = h('input', { type: 'checkbox', id, name: spec.name, 'aria-describedby': described });
      field.checked = this.texts[spec.name] === 'true';
      field.addEventListener('change', () => this.edit(spec.name, field.checked ? 'true' : 'false'));
    } else if (spec.kind === 'choice') {
      const labels = spec.choice_labels || spec.choices;
      field = h('select', { id, name: spec.name, 'aria-describedby': described }, spec.choices.map((c, i) => h('option', { value: c, text: labels[i] || humanize(c) })));
      field.value = this.texts[spec.name];
      field.addEventListener('change', () => this.edit(spec.name, field.value));
    } else if (spec.kind === 'text') {
      field = h('textarea', { id, name: spec.name, rows: 4, spellcheck: 'false', 'aria-describedby': described });
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
        'aria-describedby': described, title: 'Allowed: ' + spec.allowed.split(spec.name).join('value'),
      });
      field.value = this.texts[spec.name];
      field.addEventListener('input', () => this.edit(spec.name, field.value));
    }
    this.fields[spec.name] = field;
    // Not a live region: one per card would re-announce on every keystroke. The field points
    // at its error (aria-describedby, aria-invalid); the page announces the first error once.
    const err = h('span', { class: 'field-error', id: errId });
    this.errors[spec.name] = err;
    const hint = spec.help ? h('small', { class: 'hint', id: hintId, text: spec.help }) : null;
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
    for (const [k, v] of Object.entries(this.texts)) if (v !== this.base[k]) diff[k] = v;
    this.ctx.onChange(this.est.id, diff);
    this.showShared();
  }

  // The scenario's values for this card's inputs, by declared meaning (as presets fill them).
  takeShared(shared) {
    const fills = presetFills(this.est, { values: shared.values, estimators: [] });
    this.shared = shared;
    this.sharedKeys = Object.keys(fills);
    const base = { ...this.defaults };
    for (const spec of this.est.inputs)
      if (spec.name in fills) base[spec.name] = inputText(this.ctx.api, fills[spec.name], spec);
    this.base = base;
  }

  // The scenario changed: every input still at the old scenario's value follows the new one;
  // a value the user typed stays (and the note says so). The caller recomputes.
  follow(shared) {
    const old = this.base;
    this.takeShared(shared);
    const texts = {};
    for (const spec of this.est.inputs)
      if (this.texts[spec.name] === old[spec.name]) texts[spec.name] = this.base[spec.name];
    this.setTexts(texts);
    this.changed();
  }

  // "Follows the scenario (Llama 3 70B · H100): Layers, Width … This card's own values: TP."
  showShared() {
    if (!this.sharedNote) return;
    const label = (n) => this.est.inputs.find((i) => i.name === n).label;
    const following = this.sharedKeys.filter((k) => this.texts[k] === this.base[k]);
    const own = this.sharedKeys.filter((k) => this.texts[k] !== this.base[k]);
    this.resetButton.textContent = this.sharedKeys.length ? 'Reset to the scenario' : 'Reset to example';
    this.sharedNote.hidden = !this.sharedKeys.length;
    if (!this.sharedKeys.length) return this.sharedNote.replaceChildren();
    // A model fills dozens of inputs: name a few, count the rest, list them all on request.
    const FEW = 4;
    const names = following.map(label);
    const summary = names.length <= FEW ? names.join(', ')
      : `${names.length} inputs (${names.slice(0, FEW).join(', ')} and ${names.length - FEW} more)`;
    const parts = [h('p', {}, h('strong', { text: `Follows the scenario (${this.shared.label})` }),
      following.length ? `: ${summary}.` : ': no input at the scenario’s value.')];
    if (names.length > FEW)
      parts.push(h('details', { class: 'follows-all' }, h('summary', { text: 'Which inputs' }), h('p', { text: names.join(', ') + '.' })));
    if (own.length)
      parts.push(h('p', {}, `This card’s own value${own.length > 1 ? 's' : ''}: ${own.map(label).join(', ')}. `,
        h('button', { type: 'button', class: 'small', text: 'Use the scenario’s values', onclick: () => this.useShared() })));
    this.sharedNote.replaceChildren(...parts);
  }

  useShared() {
    const texts = {};
    for (const k of this.sharedKeys) texts[k] = this.base[k];
    this.setTexts(texts);
    this.changed();
    this.recompute();
  }

  stateChanged() {
    if (this.ctx.onState) this.ctx.onState(this.est.id, { preset: Object.values(this.chosen).join(','), open: this.derivation.open });
  }

  // The presets a permalink names ("llama2-70b,a100"), shown as chosen without applying them:
  // the permalink's values already hold what they set.
  showChosen(ids) {
    this.chosen = {};
    for (const s of Object.values(this.presetSelects)) s.value = '';
    const sources = [];
    for (const id of String(ids || '').split(',')) {
      const p = this.ctx.presets.find((x) => x.id === id);
      if (!p || !this.presetSelects[p.kind]) continue;
      this.presetSelects[p.kind].value = p.id;
      this.chosen[p.kind] = p.id;
      sources.push(`${p.label}: ${p.source}`);
    }
    if (this.presetSource) this.presetSource.textContent = sources.join(' · ');
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

  // Restores a state read from the URL (paste a permalink, Back / Forward).
  restore(values, presetId, open) {
    this.setTexts({ ...this.base, ...(values || {}) });
    this.showChosen(presetId);
    this.derivation.open = !!open;
    this.recompute();
  }

  applyPreset(p) {
    const texts = {};
    // A worked example is a whole setup: start it from the card's example. A model, GPU or
    // link preset after one puts back what the worked example set and this preset does not
    // know, so no value from the previous example stays behind with a new meaning.
    if (p.kind === 'scenario') Object.assign(texts, this.defaults);
    else for (const k of this.scenarioKeys) texts[k] = this.base[k];
    const fills = presetFills(this.est, p);
    for (const spec of this.est.inputs)
      if (spec.name in fills) texts[spec.name] = inputText(this.ctx.api, fills[spec.name], spec);
    this.scenarioKeys = p.kind === 'scenario' ? Object.keys(fills) : [];
    // A worked example replaces model, accelerator and link; those replace only a worked example.
    for (const kind of Object.keys(this.chosen))
      if (kind !== p.kind && (p.kind === 'scenario' || kind === 'scenario')) delete this.chosen[kind];
    this.chosen[p.kind] = p.id;
    this.setTexts(texts);
    this.showChosen(Object.values(this.chosen).join(','));
    this.changed();
    this.stateChanged();
    this.recompute();
  }

  reset() {
    this.setTexts(this.base);
    if (this.presetSource) this.presetSource.textContent = '';
    this.showChosen('');
    this.scenarioKeys = [];
    this.changed();
    this.stateChanged();
    this.recompute();
  }

  inputsForRun(texts = this.texts) {
    const inputs = {};
    for (const spec of this.est.inputs) {
      const t = texts[spec.name];
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

  // Every input that is wrong on its own, not only the first: each is checked against the
  // card's example values for the others.
  allErrors(first) {
    const errors = {};
    if (first.error.input) errors[first.error.input] = first.error.message;
    for (const spec of this.est.inputs) {
      if (spec.name in errors || this.texts[spec.name] === this.base[spec.name]) continue;
      const r = this.ctx.api.run(this.est.id, this.inputsForRun({ ...this.base, [spec.name]: this.texts[spec.name] }));
      if (r.error && r.error.input === spec.name) errors[spec.name] = r.error.message;
    }
    return errors;
  }

  run() {
    const r = this.ctx.api.run(this.est.id, this.inputsForRun());
    for (const e of Object.values(this.errors)) e.replaceChildren();
    for (const f of Object.values(this.fields)) f.removeAttribute('aria-invalid');
    if (r.error) {
      this.el.classList.add('stale');
      const errors = this.allErrors(r);
      let onField = false;
      for (const [name, message] of Object.entries(errors)) {
        if (!this.errors[name]) continue;
        this.errors[name].replaceChildren(...withCode(message, name));
        this.fields[name].setAttribute('aria-invalid', 'true');
        const fold = this.fields[name].closest('details.fold');
        if (fold) fold.open = true;
        onField = true;
      }
      if (!onField || !r.error.input || !this.errors[r.error.input]) {
        this.formError.replaceChildren(...withCode(r.error.message, r.error.input));
        this.formError.hidden = false;
      } else this.formError.hidden = true;
      // No stale numbers: results and charts wait for valid inputs.
      for (const el of Object.values(this.outputs)) {
        el.textContent = '—';
        delete el.dataset.value;
      }
      this.last = null;
      if (this.chartsDrawn) for (const c of this.charts) c.stale(STALE_CHART);
      else this.drawCharts();
      if (this.ctx.announce) this.ctx.announce(r.error.message);
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
    else this.drawCharts();
    return r;
  }

  // The first drawing: once chart.js is in, a frame after the numbers, for the inputs of then.
  drawCharts() {
    if (!this.chartBox || this.chartsPending) return;
    this.chartsPending = true;
    loadCharts().then(({ Chart }) => requestAnimationFrame(() => {
      this.charts = this.ctx.charts.map((spec) => new Chart(this.ctx.api, spec, this.est, this.ctx.fmt, this.moveTo));
      this.chartBox.replaceChildren(...this.charts.map((c) => c.el));
      this.chartsDrawn = true;
      for (const c of this.charts) {
        if (this.last) c.update(this.last.inputs, this.last.outputs);
        else c.stale(STALE_CHART);
      }
    }), (e) => {
      this.chartsPending = false;  // a later result tries again
      this.chartBox.replaceChildren(h('p', { class: 'chart-note', text: `The charts could not be loaded (${e && e.message ? e.message : e}).` }));
    });
  }

  valueText(o, v, inputs) {
    const { fmt } = this.ctx;
    if (v === undefined || v === null) return '—';
    if (o.kind === 'number') return fmt(v, o.unit, 4);
    if (o.kind === 'boolean') return v ? 'yes' : 'no';
    if (o.kind === 'array') return null;
    return String(v);
  }

  showOutputs(r) {
    for (const o of this.est.outputs) {
      const el = this.outputs[o.name];
      if (!el) continue;
      const v = r.outputs[o.name];
      el.replaceChildren();
      el.removeAttribute('title');
      if (v === undefined) {
        // Not asked for (an optional output): absent, never a 0.
        el.textContent = '—';
        el.title = 'Not computed for these inputs';
        delete el.dataset.value;
        el.dataset.absent = 'true';
      } else if (o.kind === 'array') {
        delete el.dataset.absent;
        el.append(this.renderArray(o, v, r.inputs));
      } else {
        delete el.dataset.absent;
        el.textContent = this.valueText(o, v);
        if (o.kind === 'number') el.title = `${v} ${o.unit}`.trim();
        el.dataset.value = String(v);
      }
      this.showPin(o, v);
    }
    this.warnings.replaceChildren(...r.warnings.map((w) => h('li', { text: w })));
  }

  // Predict, then reveal: the results hide until the estimate for one output is committed;
  // then the card says how far off it was.
  predict(results) {
    const outs = this.est.outputs.filter((o) => !o.hidden && o.kind === 'number');
    const pick = h('select', { 'aria-label': 'Output to predict' }, outs.map((o) => h('option', { value: o.name, text: o.label })));
    const guess = h('input', { type: 'text', 'aria-label': 'Your estimate', autocomplete: 'off' });
    const said = h('p', { class: 'predicted', role: 'status' });
    const reveal = () => {
      const o = outs.find((x) => x.name === pick.value);
      const g = this.ctx.api.parse(guess.value, o.unit);
      const v = this.last && this.last.outputs[o.name];
      if (!g.ok || typeof v !== 'number') return (said.textContent = g.ok ? 'Fix the inputs first.' : g.error.message || g.error);
      this.el.classList.remove('predicting');
      box.replaceWith(said);
      const r = g.value / v, k = r > 1 ? r : 1 / r, fmt = (x) => this.ctx.fmt(x, o.unit, 4);
      said.textContent = `You said ${fmt(g.value)}; ${o.label} is ${fmt(v)}` +
        (!(r > 0 && k < Infinity) ? '.' : k < 1.1 ? ': within 10 %.' : `: ${k < 10 ? k.toPrecision(2) : Math.round(k)}× too ${r > 1 ? 'high' : 'low'}.`);
    };
    const box = h('div', { class: 'predict' }, h('p', { text: 'Estimate one result before you see it:' }), pick, guess, h('button', { type: 'button', class: 'small', text: 'Reveal', onclick: reveal }), said);
    guess.addEventListener('keydown', (e) => e.key === 'Enter' && (e.preventDefault(), reveal()));
    this.el.classList.add('predicting');
    results.querySelector('.predict, .predicted')?.remove();
    results.insertBefore(box, results.children[1]);
    guess.focus();
  }

  // Compare: a pinned result stays under each number, with the difference to the current one.
  showPin(o, v) {
    const pin = this.pins[o.name];
    if (!pin) return;
    if (!this.pinned || o.kind === 'array') {
      pin.hidden = true;
      return;
    }
    const was = this.pinned.outputs[o.name];
    pin.hidden = false;
    let text = `Pinned: ${this.valueText(o, was)}`;
    if (o.kind === 'number' && typeof was === 'number' && typeof v === 'number' && was !== v) {
      const d = v - was;
      text += ` · now ${d > 0 ? '+' : '−'}${this.ctx.fmt(Math.abs(d), o.unit, 3)}`;
      if (was !== 0) text += ` (${d > 0 ? '+' : '−'}${Math.abs((100 * d) / was).toPrecision(3)} %)`;
    } else if (was === v) text += ' · same';
    pin.textContent = text;
  }

  togglePin() {
    this.pinned = this.pinned ? null : this.last;
    this.pinButton.textContent = this.pinned ? 'Unpin' : 'Pin these results';
    this.pinButton.setAttribute('aria-pressed', String(!!this.pinned));
    if (this.last) this.showOutputs(this.last);
    else for (const o of this.est.outputs) this.showPin(o, undefined);
  }

  exportRows() {
    if (!this.last) return null;
    const rows = [];
    for (const spec of this.est.inputs)
      rows.push({ kind: 'input', name: spec.name, label: spec.label, value: this.last.inputs[spec.name], unit: spec.unit, typed: this.texts[spec.name] });
    for (const o of this.est.outputs) {
      if (o.hidden || !(o.name in this.last.outputs)) continue;
      const v = this.last.outputs[o.name];
      rows.push({ kind: 'output', name: o.name, label: o.label, value: typeof v === 'object' ? JSON.stringify(v) : v, unit: o.unit, typed: '' });
    }
    return rows;
  }

  exportJson() {
    if (!this.last) return;
    const outputs = {};
    for (const o of this.est.outputs) if (!o.hidden && o.name in this.last.outputs) outputs[o.name] = this.last.outputs[o.name];
    download(`${this.est.id}.json`, 'application/json', JSON.stringify({ estimator: this.est.id, title: this.est.title, inputs: this.last.inputs, outputs, warnings: this.last.warnings }, null, 2));
  }

  exportCsv() {
    const rows = this.exportRows();
    if (!rows) return;
    download(`${this.est.id}.csv`, 'text/csv', toCsv(['kind', 'name', 'label', 'value', 'unit', 'typed'], rows));
  }

  // A table output: its columns, headings and units as the registry declares them (o.columns);
  // columns no row holds are left out. Rows that are parts of an input (o.parts_of) are also
  // drawn as one bar against it.
  renderArray(o, rows, inputs) {
    if (!Array.isArray(rows) || !rows.length) return document.createTextNode('—');
    // Every table output declares its columns (a registry test checks); a key is never guessed.
    const cols = (o.columns || [])
      .filter((c) => rows.some((r) => r[c.name] !== undefined));
    const table = h('table', { class: 'mini' },
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { scope: 'col', text: c.label, title: c.help || undefined })))),
      h('tbody', {}, rows.map((row) => h('tr', {}, cols.map((c) => h('td', { text: this.cell(c, row[c.name]) }))))));
    // A wide table scrolls inside its own box, which takes focus so keys can scroll it.
    const scroller = h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': o.label }, table);
    const bar = this.partsBar(o, rows, inputs);
    return bar ? h('div', {}, bar, scroller) : scroller;
  }

  // The rows' parts against the whole the user gave (serve.pipeline: each stage's latency
  // against the latency budget), when that input is set (0 = none).
  partsBar(o, rows, inputs) {
    const parts = o.parts_of;
    const whole = parts && inputs ? inputs[parts.input] : undefined;
    if (typeof whole !== 'number' || !(whole > 0) || !rows.every((r) => typeof r[parts.column] === 'number')) return null;
    const col = (o.columns || []).find((c) => c.name === parts.column) || { label: parts.column, unit: '' };
    const f = (v, digits) => this.ctx.fmt(v, col.unit, digits);
    const total = rows.reduce((a, r) => a + r[parts.column], 0);
    const scale = Math.max(whole, total) || 1;
    const over = total > whole;
    // A row is named by its first column when that holds text (a stage's name), else its number.
    const first = (o.columns || [])[0];
    const rowName = (r, i) => (first && typeof r[first.name] === 'string' ? r[first.name] : String(i + 1));
    const segments = rows.map((r, i) =>
      h('span', {
        class: `segment c${i % 6}`,
        style: `width:${(100 * r[parts.column]) / scale}%`,
        title: `${rowName(r, i)}: ${f(r[parts.column], 3)}`,
        text: `${rowName(r, i)} ${f(r[parts.column], 3)}`,
      }));
    return h('div', { class: over ? 'budget-bar over' : 'budget-bar', role: 'img',
      'aria-label': `${col.label} ${f(total, 3)} of a ${f(whole, 3)} ${parts.label}` },
      h('div', { class: 'track' }, segments,
        h('span', { class: 'budget-mark', style: `left:${(100 * whole) / scale}%`, title: parts.label })),
      h('p', { class: 'budget-legend', text: `${f(total, 4)} of a ${f(whole, 4)} ${parts.label} — ${over ? 'over by ' + f(total - whole, 3) : f(whole - total, 3) + ' to spare'}` }));
  }

  cell(col, v) {
    if (v === undefined) return '';
    if (typeof v !== 'number') return String(v);
    return this.ctx.fmt(v, col.unit, 4);
  }

  renderSteps() {
    if (!this.derivation.open || !this.last) return;
    const last = this.last;
    loadMath().then(({ renderMath }) => {
      if (this.last === last && this.derivation.open) this.showSteps(renderMath);
    }, (e) => this.steps.replaceChildren(h('li', { class: 'step' }, h('p', { class: 'step-note', text: `The derivation could not be shown (${e && e.message ? e.message : e}).` }))));
  }

  showSteps(renderMath) {
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
