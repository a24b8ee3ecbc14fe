// The Plan card (docs/training.md): describe a training job, search every layout of it in a Web Worker
// (api.search), and show the best layouts, why they win, what was rejected and the Pareto front
// of step time against memory per GPU. Its inputs, labels and help come from the core (the
// registry's `search` entry); each layout opens in the estimator the search ranks with.
import { h } from './dom.js';
import { Chart } from './chart.js';
import { inputText, presetsFor, presetFills } from './form.js';
import { humanize, withCode } from './export.js';

// Output names of the search's JSON (docs/training.md, search): the table's columns and the chart's axes.
const COLUMNS = ['step_time', 'mfu', 'memory_per_gpu'];

export class PlanCard {
  // ctx: { api, fmt(v, unit, digits), registry, open(id) → EstimatorCard | null, opened() after a row is in }
  constructor(ctx, meta) {
    this.ctx = ctx;
    this.meta = meta;
    // The ranking estimator's card, once it is listed (until then rows cannot open in it).
    this.est = ctx.registry.estimators.find((e) => e.id === meta.estimator) || null;
    this.out = (n) => meta.outputs.find((o) => o.name === n) || { name: n, label: humanize(n), unit: '' };
    this.outLabel = (n) => this.out(n).label;
    this.inSpec = (n) => meta.layout.find((i) => i.name === n) || null;
    this.fields = {};
    this.errors = {};
    this.charts = [];  // the Pareto chart, once there are results (app.js resizes it)
    this.el = this.render();
    this.base = this.texts();
    if (ctx.shared) this.follow(ctx.shared);
  }

  // Every field as text, a switch as 'true' / 'false' (as inputText writes it), so a value
  // is compared with the scenario's the same way whatever its kind.
  texts() {
    return Object.fromEntries(Object.entries(this.fields).map(([k, f]) => [k, f.type === 'checkbox' ? String(f.checked) : f.value]));
  }

  setText(name, text) {
    const f = this.fields[name];
    if (f.type === 'checkbox') f.checked = text === 'true';
    else f.value = text;
  }

  // The scenario bar changed (app.js): every input still at the old scenario's value follows
  // the new one, as the estimator cards do; a value typed here stays.
  follow(shared) {
    const fills = presetFills({ inputs: this.meta.inputs }, { values: shared.values, estimators: [] });
    const now = this.texts();
    const base = {};
    for (const spec of this.meta.inputs) {
      base[spec.name] = spec.name in fills ? inputText(this.ctx.api, fills[spec.name], spec) : this.example(spec);
      if (now[spec.name] === this.base[spec.name]) this.setText(spec.name, base[spec.name]);
    }
    this.base = base;
    this.note.hidden = !Object.keys(fills).length;
    this.note.textContent = `Follows the scenario (${shared.label}).`;
  }

  example(spec) {
    return inputText(this.ctx.api, spec.example, spec);
  }

  render() {
    const { meta, ctx } = this;
    const form = h('form', { class: 'card plan', dataset: { search: meta.estimator }, 'aria-labelledby': 'plan-head', novalidate: true,
      onsubmit: (e) => { e.preventDefault(); this.search(); } });
    form.append(h('header', { class: 'card-head' },
      h('h3', { id: 'plan-head', tabindex: '-1', text: meta.title }),
      h('p', { class: 'summary', text: meta.summary })));
    // The numbers a model or accelerator preset carries follow the page's scenario bar; they sit
    // in a disclosure so the job itself stays short.
    const presets = presetsFor({ inputs: meta.inputs }, ctx.registry.presets).filter((p) => p.kind === 'model' || p.kind === 'gpu');
    const filled = new Set(presets.flatMap((p) => Object.keys(presetFills({ inputs: meta.inputs }, p))));
    this.note = h('p', { class: 'hint', hidden: true });
    const job = h('fieldset', { class: 'inputs' }, h('legend', { text: 'Job' }));
    const dims = h('fieldset', { class: 'inputs' }, h('legend', { text: 'Search over' }));
    const details = h('fieldset', { class: 'inputs' }, h('legend', { class: 'visually-hidden', text: 'Model and accelerator' }));
    for (const spec of meta.inputs) (spec.dimension ? dims : filled.has(spec.name) ? details : job).append(this.renderInput(spec));
    form.append(this.note, job);
    if (details.childElementCount > 1) form.append(h('details', { class: 'plan-more' }, h('summary', { text: 'Model and accelerator numbers' }), details));
    form.append(dims);
    this.button = h('button', { type: 'submit', class: 'primary', text: 'Search' });
    this.cancel = h('button', { type: 'button', class: 'small', text: 'Cancel', hidden: true, onclick: () => this.abort && this.abort.abort() });
    this.bar = h('progress', { max: 1, value: 0, 'aria-label': 'Layouts searched', hidden: true });
    this.progressText = h('span', { class: 'progress', 'aria-hidden': 'true' });
    this.status = h('p', { class: 'plan-status', role: 'status' });
    this.results = h('div', { class: 'plan-results' });
    form.append(h('div', { class: 'plan-run' }, this.button, this.cancel, this.bar, this.progressText), this.status, this.results);
    return form;
  }

  unitOf(name) {
    return this.out(name).unit;
  }

  spec(name) {
    return this.meta.inputs.find((i) => i.name === name);
  }

  renderInput(spec) {
    const id = 'plan-' + spec.name;
    const hint = spec.help ? h('small', { class: 'hint', id: id + '-hint', text: spec.help }) : null;
    const err = h('span', { class: 'field-error', id: id + '-err' });
    const attrs = { id, name: spec.name, 'aria-describedby': (hint ? id + '-hint ' : '') + id + '-err' };
    let field;
    if (spec.kind === 'boolean') {
      field = h('input', { type: 'checkbox', ...attrs });
      field.checked = spec.example === true;
    } else if (spec.kind === 'choice') {
      field = h('select', attrs, spec.choices.map((c, i) => h('option', { value: c, text: (spec.choice_labels || [])[i] || humanize(c) })));
      field.value = spec.example;
    } else {
      field = h('input', { type: 'text', autocomplete: 'off', spellcheck: 'false', ...attrs });
      field.value = inputText(this.ctx.api, spec.example, spec);
    }
    this.fields[spec.name] = field;
    this.errors[spec.name] = err;
    const label = h('label', { for: id, text: spec.label });
    return spec.kind === 'boolean' ? h('div', { class: 'plan-check' }, field, label, hint, err) : h('div', { class: 'field' }, label, field, hint, err);
  }

  inputs() {
    const out = {};
    for (const spec of this.meta.inputs) {
      const f = this.fields[spec.name];
      out[spec.name] = spec.kind === 'boolean' ? f.checked : f.value;
    }
    return out;
  }

  // Counts of layouts: "13.2 M", "384 k", "96".
  count(n) {
    return n >= 1e6 ? `${(n / 1e6).toPrecision(3)} M` : n >= 1e4 ? `${(n / 1e3).toPrecision(3)} k` : String(n);
  }

  async search() {
    if (this.abort) return;
    const { api, fmt } = this.ctx;
    for (const [name, e] of Object.entries(this.errors)) {
      e.replaceChildren();
      this.fields[name].removeAttribute('aria-invalid');
    }
    const inputs = this.inputs();
    this.abort = new AbortController();
    // The Search button stays focusable (a disabled one would drop keyboard focus to the page);
    // a second press while a search runs does nothing.
    this.button.setAttribute('aria-disabled', 'true');
    this.cancel.hidden = false;
    this.bar.hidden = false;
    this.bar.value = 0;
    this.status.textContent = 'Searching…';
    const t0 = performance.now();
    const r = await api.search(inputs, {
      signal: this.abort.signal,
      onProgress: ({ done, total }) => {
        this.bar.max = total || 1;
        this.bar.value = done;
        this.progressText.textContent = `${this.count(done)} of ${this.count(total)} layouts`;
      },
    });
    this.abort = null;
    this.button.removeAttribute('aria-disabled');
    if (document.activeElement === this.cancel) this.button.focus();
    this.cancel.hidden = true;
    this.bar.hidden = true;
    this.progressText.textContent = '';
    performance.measure('napkin-search', { start: t0 });
    if (r.error) {
      const f = r.error.input && this.fields[r.error.input];
      if (f) {
        this.errors[r.error.input].replaceChildren(...withCode(r.error.message, r.error.input));
        f.setAttribute('aria-invalid', 'true');
      }
      this.status.replaceChildren(...withCode(r.error.code === 'cancelled' ? 'Search cancelled.' : r.error.message, r.error.input));
      return;
    }
    this.last = { inputs, result: r };
    this.status.textContent = `${this.count(r.total)} layouts in ${fmt(r.seconds, 's', 2)} (${this.count(r.configs_per_second)} per second): ${this.count(r.evaluated)} evaluated, ${this.count(r.valid)} fit.`
      + (r.calculon_space ? ` Calculon's search visits ${this.count(r.calculon_space)} layouts for the same job.` : '');
    this.showResults(r, inputs);
  }

  // A layout's input as a short name: "TP" for "Tensor parallel (TP)", else its label.
  shortLabel(spec, key) {
    if (!spec) return humanize(key);
    const abbr = spec.label.match(/\(([A-Z]{2,4})\)$/);
    return abbr ? abbr[1] : spec.label;
  }

  // One layout value in words: "TP 4", "Recomputation: None", a switch by its label when on.
  layoutPart(k, v) {
    const spec = this.inSpec(k);
    const label = this.shortLabel(spec, k);
    if (typeof v === 'boolean') return v ? label : null;
    if (typeof v === 'number') return `${label} ${v}`;
    if (spec && spec.choices) return `${label}: ${(spec.choice_labels || [])[spec.choices.indexOf(v)] || v}`;
    return `${label}: ${v}`;
  }

  // A layout in words, by its inputs' labels: every number (degrees and the microbatch), the
  // choices, the switches that are on.
  layoutText(layout) {
    return Object.entries(layout).map(([k, v]) => this.layoutPart(k, v)).filter(Boolean).join(' · ') || '1 GPU';
  }

  // Rows whose results are the same and whose layouts differ only in choices (a rank order
  // that keeps every group in the same place, a recomputation that changes nothing here)
  // are one layout: the first of them, with the others counted under it.
  group(rows) {
    const same = (a, b) => Object.keys(a.outputs).every((k) => {
      const x = a.outputs[k], y = b.outputs[k];
      return typeof x === 'number' && typeof y === 'number' ? Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y)) : x === y;
    });
    const onlyChoices = (a, b) => Object.keys(a.layout).every((k) => a.layout[k] === b.layout[k] || !!(this.inSpec(k) || {}).choices);
    const groups = [];
    for (const row of rows) {
      const g = groups.find((x) => same(x.row, row) && onlyChoices(x.row, row));
      if (g) g.others.push(row);
      else groups.push({ row, others: [] });
    }
    return groups;
  }

  // "and 2 more with the same results: Rank order (placement): TP, CP, PP, DP; …"
  othersText(g) {
    if (!g.others.length) return '';
    const alts = g.others.map((o) => Object.keys(o.layout).filter((k) => o.layout[k] !== g.row.layout[k])
      .map((k) => this.layoutPart(k, o.layout[k])).join(', '));
    return `and ${g.others.length} more with the same results: ${alts.join('; ')}`;
  }

  // Why a layout wins: the share of its step spent computing, its largest overhead, and for
  // the rows below the first how much slower it is.
  why(o, best) {
    const { fmt } = this.ctx;
    const unit = this.unitOf('step_time');
    const parts = this.meta.outputs.filter((x) => x.unit === unit && x.name !== 'step_time' && x.name in o).map((x) => x.name);
    if (!parts.length) return '';
    const [compute, ...overheads] = parts;
    const pct = (v) => fmt(v / o.step_time, 'frac', 2);
    let text = `${this.outLabel(compute)} ${pct(o[compute])}`;
    const top = overheads.sort((a, b) => o[b] - o[a])[0];
    if (top && o[top] > 0) text += `; largest overhead: ${this.overheadLabel(top)} ${pct(o[top])}`;
    if (best && o.step_time > best.step_time) text += `; ${fmt(o.step_time / best.step_time - 1, 'frac', 2)} slower than the best`;
    return text;
  }

  // An overhead named like a setting of the layout ("Recomputation" beside "Recomputation:
  // None") says what it is, from its help: a time, not the setting.
  overheadLabel(name) {
    const o = this.out(name);
    if (!o.help || !this.meta.layout.some((i) => i.label === o.label)) return o.label;
    const help = o.help.replace(/\.$/, '');
    return `${o.label} (${help.charAt(0).toLowerCase()}${help.slice(1)})`;
  }

  showResults(r, inputs) {
    const { fmt } = this.ctx;
    const canOpen = !!this.est && typeof this.ctx.open === 'function';
    const best = r.best && r.best.outputs;
    const groups = this.group(r.top);
    const heads = ['#', ...COLUMNS.map((c) => this.outLabel(c)), 'Layout', 'Why it wins', ...(canOpen ? ['Derivation'] : [])];
    // Below 480 px the rows are cards (style.css): each cell then shows its column's name.
    const cell = (head, attrs, ...content) => h('td', attrs, h('span', { class: 'cell-label', text: head }), ...content);
    const table = h('table', { class: 'mini plan-table' },
      h('thead', {}, h('tr', {}, heads.map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, groups.map(({ row, others }, i) => h('tr', {},
        h('td', { class: 'plan-rank', text: String(i + 1) }),
        COLUMNS.map((c, j) => cell(heads[j + 1], { dataset: { output: c, value: row.outputs[c] } }, fmt(row.outputs[c], this.unitOf(c), 3))),
        cell('Layout', { class: 'plan-layout' }, this.layoutText(row.layout),
          others.length ? h('span', { class: 'plan-others', text: this.othersText({ row, others }) }) : null),
        cell('Why it wins', { class: 'plan-why' }, this.why(row.outputs, best)),
        canOpen ? h('td', { class: 'plan-open' }, h('button', { type: 'button', class: 'small', text: 'Open',
          'aria-label': `Open layout ${i + 1} in ${this.est.title}`, onclick: () => this.openRow(row, inputs) })) : null))));
    const rejected = Object.entries(r.rejected).sort((a, b) => b[1] - a[1]);
    this.results.replaceChildren(
      h('h4', { text: r.top.length ? 'Best layouts' : 'No layout fits' }),
      r.top.length ? h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Best layouts' }, table) : null,
      rejected.length ? h('h4', { text: 'Rejected' }) : null,
      rejected.length ? h('ul', { class: 'plan-rejected' }, rejected.map(([why, n]) => h('li', { text: `${this.count(n)}: ${why}` }))) : null);
    if (r.pareto.length) this.results.append(this.pareto(r.pareto));
  }

  pareto(points) {
    const x = 'memory_per_gpu', y = 'step_time';
    const xs = points.map((p) => p.outputs[x]);
    const spec = { id: 'pareto', title: `${this.outLabel(y)} against ${this.outLabel(x)}: the fastest layout at each memory`,
      x, x_label: this.outLabel(x), y_label: this.outLabel(y), y_unit: this.unitOf(y), x_min: 0, x_max: Math.max(...xs) * 1.05,
      log_x: false, log_y: false, kind: 'line', y: [y], series: [], markers: [], mark_current: false, hline_input: '', x_max_input: '' };
    const est = { inputs: [{ name: x, label: this.outLabel(x), unit: this.unitOf(x) }], outputs: this.meta.outputs };
    const chart = new Chart(this.ctx.api, spec, est, this.ctx.fmt);
    const box = h('div', { class: 'charts' }, chart.el);
    requestAnimationFrame(() => {
      chart.resize(chart.measure());
      chart.show({ xs, lines: [{ group: '', output: y, values: points.map((p) => p.outputs[y]) }] });
    });
    this.charts = [chart];
    return box;
  }

  // The row's layout with the job's inputs in the ranking estimator's card, derivation open.
  // Back from a row opened in the estimator's card (app.js): the results again, in view.
  backHere() {
    const head = this.results.querySelector('h4');
    if (!head) return;
    head.tabIndex = -1;
    head.scrollIntoView({ block: 'start' });
    head.focus({ preventScroll: true });
  }

  // It is a step in the history (app.js): Back comes back to these results.
  openRow(row, inputs) {
    const card = this.ctx.open(this.est.id, { from: this });
    if (!card) return;
    const texts = {};
    for (const spec of this.est.inputs) {
      if (spec.name in row.layout) texts[spec.name] = inputText(this.ctx.api, row.layout[spec.name], spec);
      else if (spec.name in inputs) texts[spec.name] = spec.kind === 'boolean' ? String(inputs[spec.name]) : String(inputs[spec.name]);
    }
    card.setTexts(texts);
    card.changed();
    card.derivation.open = true;
    card.recompute();
    if (this.ctx.opened) this.ctx.opened();
  }
}
