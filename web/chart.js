// Charts drawn from the registry's chart specs: each is one `sweep` call per series (one call
// into wasm for all points), plotted with uPlot (small, canvas, fast enough to redraw on every
// keystroke). Markers, the user's current point and a horizontal reference line are drawn in
// a draw hook so they need not share the sweep's x values.
import uPlot from 'uplot';
import { h } from './dom.js';
import { download, toCsv } from './export.js';

const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#4b5563'];

export function chartXs(spec) {
  const n = Math.max(2, spec.points | 0);
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t = i / (n - 1);
    let x = spec.log_x
      ? Math.exp(Math.log(spec.x_min) + t * (Math.log(spec.x_max) - Math.log(spec.x_min)))
      : spec.x_min + t * (spec.x_max - spec.x_min);
    if (spec.integer_x) x = Math.round(x);
    if (!xs.length || xs[xs.length - 1] !== x) xs.push(x);
  }
  return xs;
}

// Lines (or stacked bars) of a chart for the given inputs, as plain arrays.
export function chartData(api, spec, inputs) {
  const xs = chartXs(spec);
  // The user's own x is one of the points, so the line passes through their result and the
  // legend can show it exactly.
  const own = inputs[spec.x];
  if (spec.kind !== 'bar' && typeof own === 'number' && own > spec.x_min && own < spec.x_max && !xs.includes(own)) {
    xs.push(own);
    xs.sort((a, b) => a - b);
  }
  const lines = [];
  // Lines for fixed alternatives (other GPUs, other settings) also get one for the user's own
  // inputs, so the point marked "your inputs" always sits on a line.
  const groups = spec.series.length ? [...spec.series] : [{ label: '', overrides: {} }];
  if (spec.series.length && spec.kind !== 'bar' && !spec.series.some((g) => !Object.keys(g.overrides).length))
    groups.unshift({ label: 'Your inputs', overrides: {} });
  for (const g of groups) {
    const res = api.sweep(spec.estimator, { ...inputs, ...g.overrides }, spec.x, xs);
    if (res.error) return { error: res.error.message, xs, lines: [] };
    for (const y of spec.y) lines.push({ group: g.label, output: y, values: res.outputs[y] });
  }
  return { xs, lines };
}

function labelFor(line, spec, outputLabels) {
  const out = outputLabels[line.output] || line.output;
  if (!line.group) return out;
  return spec.y.length > 1 ? `${line.group} — ${out}` : line.group;
}

// On a log axis uPlot also places minor splits (2×, 3×, …); label only the powers of ten.
function ticks(splits, log, fmt) {
  return splits.map((v) => {
    if (v === null) return '';
    if (!log) return fmt(v);
    const e = Math.log10(Math.abs(v));
    return Math.abs(e - Math.round(e)) < 1e-9 ? fmt(v) : '';
  });
}

const SLIDER_STEPS = 1000;

// Slider position (0…SLIDER_STEPS) ↔ x on the chart's axis, logarithmic where the axis is.
export function sliderToX(spec, pos) {
  const t = pos / SLIDER_STEPS;
  const x = spec.log_x
    ? Math.exp(Math.log(spec.x_min) + t * (Math.log(spec.x_max) - Math.log(spec.x_min)))
    : spec.x_min + t * (spec.x_max - spec.x_min);
  return spec.integer_x ? Math.round(x) : Number(x.toPrecision(4));
}

export function xToSlider(spec, x) {
  const t = spec.log_x
    ? (Math.log(x) - Math.log(spec.x_min)) / (Math.log(spec.x_max) - Math.log(spec.x_min))
    : (x - spec.x_min) / (spec.x_max - spec.x_min);
  return Math.round(Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * SLIDER_STEPS);
}

export class Chart {
  // onMove(name, x): the slider under the chart sets the swept input to x.
  constructor(api, spec, est, fmt, onMove) {
    this.api = api;
    this.spec = spec;
    this.est = est;
    this.fmt = fmt;
    this.outputLabels = Object.fromEntries(est.outputs.map((o) => [o.name, o.label]));
    this.xUnit = (est.inputs.find((i) => i.name === spec.x) || {}).unit || '';
    this.plot = null;
    this.extras = { markers: [], current: [], hline: null };
    this.el = h('figure', { class: 'chart', dataset: { chart: spec.id } },
      h('figcaption', { text: spec.title }));
    this.box = h('div', { class: 'chart-box' });
    this.note = h('p', { class: 'chart-note' });
    this.el.append(this.box, this.note);
    const xInput = est.inputs.find((i) => i.name === spec.x);
    if (onMove && xInput) {
      this.slider = h('input', { type: 'range', min: 0, max: SLIDER_STEPS, step: 1, class: 'x-slider',
        'aria-label': xInput.label, dataset: { input: spec.x } });
      this.slider.addEventListener('input', () => onMove(spec.x, sliderToX(spec, Number(this.slider.value))));
      this.el.append(h('label', { class: 'slider-row' }, h('span', { text: `Move ${xInput.label}` }), this.slider));
    }
    // A static description stays readable where a canvas is not; the data itself is offered
    // as a table, and as CSV and PNG files.
    this.box.setAttribute('role', 'img');
    this.box.setAttribute('aria-label', `${spec.title}: ${spec.y_label} against ${spec.x_label}`);
    this.tableBox = h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': `${spec.title}: data` });
    this.dataTable = h('details', { class: 'chart-data', ontoggle: () => this.renderTable() },
      h('summary', { text: 'Data as a table' }), this.tableBox);
    this.el.append(h('div', { class: 'chart-tools' },
      h('button', { type: 'button', class: 'small', text: 'Download PNG', onclick: () => this.exportPng() }),
      h('button', { type: 'button', class: 'small', text: 'Download CSV', onclick: () => this.exportCsv() })),
      this.dataTable);
  }

  columns() {
    if (!this.data) return null;
    const head = [this.spec.x_label, ...this.data.lines.map((l) => labelFor(l, this.spec, this.outputLabels))];
    const rows = this.data.xs.map((x, i) => [x, ...this.data.lines.map((l) => l.values[i])]);
    return { head, rows };
  }

  renderTable() {
    if (!this.dataTable.open) return;
    const c = this.columns();
    if (!c) return this.tableBox.replaceChildren();
    const fx = (v) => (v === null || v === undefined ? '—' : this.fmt(v, this.xUnit, 4));
    const fy = (v) => (v === null || v === undefined ? '—' : this.fmt(v, this.spec.y_unit, 4));
    this.tableBox.replaceChildren(h('table', { class: 'mini' },
      h('thead', {}, h('tr', {}, c.head.map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, c.rows.map((r) => h('tr', {}, r.map((v, j) => h('td', { text: j ? fy(v) : fx(v) })))))));
  }

  exportCsv() {
    const c = this.columns();
    if (c) download(`${this.spec.id}.csv`, 'text/csv', toCsv(c.head, c.rows));
  }

  exportPng() {
    const canvas = this.box.querySelector('canvas');
    if (canvas) canvas.toBlob((b) => b && download(`${this.spec.id}.png`, 'image/png', b));
  }

  stale(message) {
    this.note.textContent = message;
    this.el.classList.add('stale');
    this.extras = { markers: [], current: [], hline: null };
    if (this.plot) this.plot.redraw(false);
  }

  update(inputs, outputs) {
    const { spec } = this;
    if (this.slider && typeof inputs[spec.x] === 'number' && document.activeElement !== this.slider)
      this.slider.value = String(xToSlider(spec, inputs[spec.x]));
    if (this.slider && typeof inputs[spec.x] === 'number')
      this.slider.setAttribute('aria-valuetext', this.fmt(inputs[spec.x], this.xUnit, 4));
    const data = chartData(this.api, spec, inputs);
    if (data.error) {
      this.stale(data.error);
      return;
    }
    this.show(data, inputs, outputs);
  }

  // Draws given lines ({xs, lines: [{group, output, values}]}): update()'s sweeps, or points
  // a card computed otherwise (the Plan card's Pareto front).
  show(data, inputs = {}, outputs = null) {
    const { spec } = this;
    this.data = data;
    this.el.classList.remove('stale');
    this.note.textContent = '';
    this.currentX = inputs[spec.x];
    if (this.dataTable.open) this.renderTable();
    const stacked = spec.kind === 'bar';
    const raw = data.lines.map((l) => l.values);
    let ys = raw;
    if (stacked) {
      const acc = new Array(data.xs.length).fill(0);
      ys = raw.map((vals) => vals.map((v, i) => (acc[i] += v ?? 0)));
    }
    this.extras = this.computeExtras(inputs, outputs);
    const plotData = [data.xs, ...ys];
    if (this.plot && this.plot.series.length === plotData.length) {
      // Stacked bars are drawn tallest first (see create): keep that order on every update.
      this.raw = stacked ? raw.slice().reverse() : raw;
      this.plot.setData(stacked ? [plotData[0], ...plotData.slice(1).reverse()] : plotData);
    } else {
      this.raw = raw;
      this.create(plotData, data.lines, stacked);
    }
    this.showLegendAtInputs();
  }

  // The legend shows the values at the user's own x, not "—" until a mouse hovers (touch
  // screens never hover).
  showLegendAtInputs() {
    if (!this.plot || !this.data) return;
    const xs = this.data.xs;
    let best = 0;
    const x = this.currentX;
    if (typeof x === 'number')
      for (let i = 1; i < xs.length; i++) if (Math.abs(xs[i] - x) < Math.abs(xs[best] - x)) best = i;
    this.legendIdx = best;
    if (this.plot.cursor.idx == null) this.plot.setLegend({ idx: best }, false);
  }

  computeExtras(inputs, outputs) {
    const { spec, api } = this;
    const extras = { markers: [], current: [], hline: null };
    if (spec.markers.length) {
      const res = api.sweep(spec.estimator, inputs, spec.x, spec.markers.map((m) => m.x));
      if (!res.error)
        spec.markers.forEach((m, i) => {
          const y = res.outputs[spec.y[0]][i];
          if (y !== null) extras.markers.push({ x: m.x, y, label: m.label });
        });
    }
    if (spec.mark_current && outputs && spec.kind !== 'bar') {
      const x = inputs[spec.x];
      for (const y of spec.y) if (typeof outputs[y] === 'number') extras.current.push({ x, y: outputs[y] });
    }
    if (spec.hline_input && typeof inputs[spec.hline_input] === 'number') {
      const inp = this.est.inputs.find((i) => i.name === spec.hline_input);
      extras.hline = { y: inputs[spec.hline_input], label: inp ? inp.label : spec.hline_input };
    }
    return extras;
  }

  create(plotData, lines, stacked) {
    const { spec, fmt } = this;
    if (this.plot) this.plot.destroy();
    // The width comes from the last layout pass (resizeCharts), never read here: reading
    // clientWidth while cards are being built forced a layout per chart (140 ms at load).
    const width = this.w || 560;
    const fmtX = (v) => fmt(v, this.xUnit, 3);
    const fmtY = (v) => fmt(v, spec.y_unit, 3);
    const series = [{ label: spec.x_label, value: (u, v) => (v === null ? '—' : fmtX(v)) }];
    lines.forEach((line, i) => {
      const color = COLORS[i % COLORS.length];
      const s = {
        label: labelFor(line, spec, this.outputLabels),
        stroke: color,
        width: 2,
        value: (u, v, si, idx) => {
          const r = this.raw[si - 1] && idx !== null ? this.raw[si - 1][idx] : v;
          return r === null || r === undefined ? '—' : fmtY(r);
        },
      };
      if (stacked) {
        s.fill = color + 'cc';
        s.paths = uPlot.paths.bars({ size: [0.6, 80] });
        s.points = { show: false };
      }
      series.push(s);
    });
    // Stacked bars: draw the tallest (cumulative) first so each band shows.
    if (stacked) series.splice(1, series.length - 1, ...series.slice(1).reverse());
    const data = stacked ? [plotData[0], ...plotData.slice(1).reverse()] : plotData;
    if (stacked) this.raw = this.raw.slice().reverse();
    const opts = {
      width,
      height: 260,
      series,
      scales: {
        // The axis spans the swept range, not the next power of ten past the data.
        x: spec.log_x
          ? { time: false, distr: 3, range: () => [spec.x_min, spec.x_max] }
          : stacked
            ? { time: false, range: [spec.x_min - 0.6, spec.x_max + 0.6] }
            : { time: false, range: () => [spec.x_min, spec.x_max] },
        y: spec.log_y ? { distr: 3 } : { range: (u, min, max) => [Math.min(0, min), max > 0 ? max * 1.08 : 1] },
      },
      axes: [
        { label: spec.x_label, values: (u, splits) => ticks(splits, spec.log_x, fmtX), size: 40 },
        { label: spec.y_label, values: (u, splits) => ticks(splits, spec.log_y, fmtY), size: 92 },
      ],
      legend: { live: true },
      padding: [12, 40, 0, 0],  // room for the last x label ("10T param")
      cursor: { drag: { x: false, y: false } },
      hooks: {
        draw: [(u) => this.drawExtras(u)],
        // uPlot clears the legend whenever the cursor is off the plot: put the user's x back.
        setCursor: [(u) => { if (u.cursor.idx == null && this.legendIdx != null) u.setLegend({ idx: this.legendIdx }, false); }],
      },
    };
    if (stacked) opts.axes[0].splits = () => plotData[0];
    this.plot = new uPlot(opts, data, this.box);
  }

  // The chart fits its box down to a 320 px phone (WCAG 1.4.10: no sideways scrolling).
  measure() {
    return Math.max(200, Math.min(this.box.clientWidth || 560, 900));
  }

  drawExtras(u) {
    const { ctx } = u;
    const { markers, current, hline } = this.extras;
    const dpr = devicePixelRatio || 1;
    ctx.save();
    ctx.font = `${11 * dpr}px system-ui, sans-serif`;
    ctx.textAlign = 'left'; // uPlot leaves the axes' alignment set
    ctx.textBaseline = 'alphabetic';
    const pos = (x, y) => [u.valToPos(x, 'x', true), u.valToPos(y, 'y', true)];
    const inside = ([px, py]) =>
      px >= u.bbox.left && px <= u.bbox.left + u.bbox.width && py >= u.bbox.top && py <= u.bbox.top + u.bbox.height;
    if (hline) {
      const py = u.valToPos(hline.y, 'y', true);
      if (py >= u.bbox.top && py <= u.bbox.top + u.bbox.height) {
        ctx.strokeStyle = '#111827';
        ctx.setLineDash([6 * dpr, 4 * dpr]);
        ctx.beginPath();
        ctx.moveTo(u.bbox.left, py);
        ctx.lineTo(u.bbox.left + u.bbox.width, py);
        ctx.stroke();
        ctx.setLineDash([]);
        // The label sits on a backing box so bars under it do not make it unreadable.
        const text = `${hline.label}: ${this.fmt(hline.y, this.est.inputs.find((i) => i.name === this.spec.hline_input)?.unit || '', 3)}`;
        const w = ctx.measureText(text).width;
        const tx = u.bbox.left + u.bbox.width - w - 6 * dpr;
        ctx.fillStyle = 'rgba(255,255,255,0.85)';
        ctx.fillRect(tx - 3 * dpr, py - 16 * dpr, w + 6 * dpr, 14 * dpr);
        ctx.fillStyle = '#111827';
        ctx.fillText(text, tx, py - 5 * dpr);
      }
    }
    for (const m of markers) {
      const p = pos(m.x, m.y);
      if (!inside(p)) continue;
      ctx.fillStyle = '#111827';
      ctx.beginPath();
      ctx.arc(p[0], p[1], 4 * dpr, 0, 2 * Math.PI);
      ctx.fill();
      ctx.fillText(m.label, p[0] + 6 * dpr, p[1] - 6 * dpr);
    }
    for (const c of current) {
      const p = pos(c.x, c.y);
      if (!inside(p)) continue;
      ctx.strokeStyle = '#dc2626';
      ctx.lineWidth = 2 * dpr;
      ctx.beginPath();
      ctx.arc(p[0], p[1], 6 * dpr, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.fillStyle = '#dc2626';
      ctx.fillText('your inputs', p[0] + 8 * dpr, p[1] + 14 * dpr);
    }
    ctx.restore();
  }

  resize(width) {
    if (width === this.w) return;
    this.w = width;
    if (this.plot) this.plot.setSize({ width, height: 260 });
  }
}

// Every chart's width is read in one pass and then applied: alternating reads and writes
// would force a layout per chart.
export function resizeCharts(charts) {
  const widths = charts.map((ch) => ch.measure());
  charts.forEach((ch, i) => ch.resize(widths[i]));
}
