// Charts drawn from the registry's chart specs: each is one `sweep` call per series (one call
// into wasm for all points), drawn on a canvas by the small renderer below: lines, stacked
// bars, linear or log axes, a legend that reads the values at the user's x (or under the
// pointer), and the markers, the user's point and a reference line. It replaced uPlot, which
// was 22 KB of the page's 300 KB budget (gzipped) for the same pictures.
import { h } from './dom.js';
import { download, toCsv } from './export.js';

const COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#4b5563'];

// The canvas's own colours follow the page's (style.css, --chart-*: light or dark with
// prefers-color-scheme). The user's point is drawn in --chart-you, which no series uses.
const THEME = { bg: '--chart-bg', grid: '--chart-grid', text: '--chart-text', frame: '--chart-frame', title: '--chart-title', you: '--chart-you', backing: '--chart-backing' };
const LIGHT = { bg: '#f9fafb', grid: '#e5e7eb', text: '#374151', frame: '#6b7280', title: '#111827', you: '#111827', backing: 'rgba(255,255,255,0.85)' };
function theme(el) {
  const css = getComputedStyle(el);
  const t = {};
  for (const [k, v] of Object.entries(THEME)) t[k] = css.getPropertyValue(v).trim() || LIGHT[k];
  return t;
}

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

// Lines (or stacked bars) of a chart for the given inputs, as plain arrays. A chart with no x
// input draws one bar per series (a category: the series' label), each from one run.
export function chartData(api, spec, inputs) {
  if (!spec.x) {
    const xs = spec.series.map((_, i) => i);
    const lines = spec.y.map((y) => ({ group: '', output: y, values: [] }));
    for (const g of spec.series) {
      const res = api.run(spec.estimator, { ...inputs, ...g.overrides });
      if (res.error) return { error: res.error.message, xs, lines: [] };
      for (const l of lines) l.values.push(typeof res.outputs[l.output] === 'number' ? res.outputs[l.output] : null);
    }
    return { xs, lines };
  }
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
  // A series whose overrides the user's inputs already hold (the placement they chose, among
  // lines for every placement) is their line, named so, rather than drawn twice.
  const groups = spec.series.length ? [...spec.series] : [{ label: '', overrides: {} }];
  if (spec.series.length && spec.kind !== 'bar' && !spec.series.some((g) => !Object.keys(g.overrides).length)) {
    const at = spec.series.findIndex((g) => Object.entries(g.overrides).every(([k, v]) => inputs[k] === v));
    if (at >= 0) groups[at] = { ...groups[at], label: `Your inputs: ${groups[at].label}` };
    else groups.unshift({ label: 'Your inputs', overrides: {} });
  }
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

  // An x value as text: a number in the x input's unit, or a category's label.
  xText(v, digits) {
    return this.spec.x ? this.fmt(v, this.xUnit, digits) : this.spec.series[v]?.label ?? '';
  }

  columns() {
    if (!this.data) return null;
    const head = [this.spec.x_label, ...this.data.lines.map((l) => labelFor(l, this.spec, this.outputLabels))];
    const rows = this.data.xs.map((x, i) => [this.spec.x ? x : this.xText(x), ...this.data.lines.map((l) => l.values[i])]);
    return { head, rows };
  }

  renderTable() {
    if (!this.dataTable.open) return;
    const c = this.columns();
    if (!c) return this.tableBox.replaceChildren();
    const fx = (v) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : this.fmt(v, this.xUnit, 4));
    const fy = (v) => (v === null || v === undefined ? '—' : this.fmt(v, this.spec.y_unit, 4));
    this.tableBox.replaceChildren(h('table', { class: 'mini' },
      h('thead', {}, h('tr', {}, c.head.map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, c.rows.map((r) => h('tr', {}, r.map((v, j) => h('td', { text: j ? fy(v) : fx(v) })))))));
  }

  exportCsv() {
    const c = this.columns();
    if (c) download(`${this.spec.id}.csv`, 'text/csv', toCsv(c.head, c.rows));
  }

  // The PNG is the chart as a picture on its own: its title above, the legend (with the values
  // the page shows) below.
  exportPng() {
    if (!this.canvas || !this.plotData) return;
    const t = theme(this.el);
    const W = this.w || 560, pad = 10, dpr = devicePixelRatio || 1;
    const out = document.createElement('canvas');
    const ctx = out.getContext('2d');
    const wrap = (text, font, width) => {
      ctx.font = font;
      const lines = [];
      let line = '';
      for (const word of String(text).split(' ')) {
        const next = line ? `${line} ${word}` : word;
        if (line && ctx.measureText(next).width > width) { lines.push(line); line = word; } else line = next;
      }
      if (line) lines.push(line);
      return lines;
    };
    const titleFont = 'bold 13px system-ui, sans-serif', rowFont = '12px system-ui, sans-serif';
    const title = wrap(this.spec.title, titleFont, W - 2 * pad);
    const rows = [...this.legend.querySelectorAll('tr')].map((tr, i) => ({
      label: tr.querySelector('th').textContent, value: tr.querySelector('td').textContent, color: i ? this.series[i - 1].color : null,
    }));
    const titleH = pad + title.length * 17 + 4, chartH = this.canvas.height / dpr, rowH = 17;
    const H = titleH + chartH + pad + rows.length * rowH + pad;
    out.width = Math.round(W * dpr);
    out.height = Math.round(H * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = t.bg;
    ctx.fillRect(0, 0, W, H);
    ctx.fillStyle = t.title;
    ctx.font = titleFont;
    ctx.textBaseline = 'top';
    title.forEach((line, i) => ctx.fillText(line, pad, pad + i * 17));
    ctx.drawImage(this.canvas, 0, titleH, W, chartH);
    ctx.font = rowFont;
    ctx.textBaseline = 'middle';
    const labelW = Math.max(...rows.map((r) => ctx.measureText(r.label).width)) + 30;
    rows.forEach((r, i) => {
      const y = titleH + chartH + pad + i * rowH + rowH / 2;
      let x = pad;
      if (r.color) {
        ctx.fillStyle = r.color;
        ctx.fillRect(x, y - 5, 10, 10);
      }
      x += 16;
      ctx.fillStyle = t.title;
      ctx.fillText(r.label, x, y);
      ctx.fillText(r.value, Math.min(x + labelW, W - pad - ctx.measureText(r.value).width), y);
    });
    out.toBlob((b) => b && download(`${this.spec.id}.png`, 'image/png', b));
  }

  stale(message) {
    this.note.textContent = message;
    this.el.classList.add('stale');
    this.isStale = true;
    this.extras = { markers: [], current: [], hline: null };
    this.draw();
  }

  update(inputs, outputs) {
    // An axis that ends at an input's value (the GPUs generating run to the GPUs there are).
    const base = this.baseSpec || (this.baseSpec = this.spec);
    const top = base.x_max_input ? inputs[base.x_max_input] : undefined;
    this.spec = typeof top === 'number' && top > base.x_min ? { ...base, x_max: top } : base;
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
    this.isStale = false;
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
    // Stacked bars are drawn tallest (cumulative) first, so each band shows.
    const order = raw.map((_, i) => i);
    if (stacked) order.reverse();
    this.raw = order.map((i) => raw[i]);
    this.plotData = [data.xs, ...order.map((i) => ys[i])];
    this.build(order.map((i) => labelFor(data.lines[i], spec, this.outputLabels)));
    // The legend shows the values at the user's own x, not "—" until a pointer hovers (touch
    // screens never hover).
    this.legendIdx = this.nearest(this.currentX) ?? 0;
    this.draw();
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

  // The canvas and the legend, made once; the legend's rows follow the series' labels.
  build(labels) {
    if (!this.canvas) {
      this.canvas = h('canvas');
      this.legend = h('table', { class: 'chart-legend' });
      this.box.replaceChildren(this.canvas, this.legend);
      // A mouse reads the values under it while it hovers; a finger or pen reads them where it
      // taps or drags, and the readout stays there after it lifts (touch has no hover).
      const hover = (e) => {
        const r = this.canvas.getBoundingClientRect();
        this.hoverIdx = this.xFromPos ? this.nearest(this.xFromPos(e.clientX - r.left)) : null;
        this.draw();
      };
      this.canvas.addEventListener('pointermove', (e) => { if (e.pointerType === 'mouse' || e.buttons) hover(e); });
      this.canvas.addEventListener('pointerdown', hover);
      this.canvas.addEventListener('pointerleave', (e) => {
        if (e.pointerType !== 'mouse') return;
        this.hoverIdx = null;
        this.draw();
      });
      matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => { this.theme = null; this.draw(); });
    }
    const key = labels.join('\n');
    if (key === this.labelsKey) return;
    this.labelsKey = key;
    this.series = labels.map((label, i) => ({ label, color: COLORS[(this.spec.kind === 'bar' ? labels.length - 1 - i : i) % COLORS.length] }));
    this.legend.replaceChildren(
      h('tr', {}, h('th', { scope: 'row', text: this.spec.x_label }), h('td')),
      ...this.series.map((s) => {
        const swatch = h('span', { class: 'swatch' });
        swatch.style.background = s.color;
        return h('tr', {}, h('th', { scope: 'row' }, swatch, s.label), h('td'));
      }));
  }

  // The measure and axes of the current data: scales map values to CSS pixels in the canvas.
  layout() {
    const { spec } = this;
    const xs = this.plotData[0], ys = this.plotData.slice(1);
    // A phone's chart keeps a left margin only as wide as its y labels need (and the axis
    // title beside them), so the plot keeps room for its x labels.
    const W = this.w || 560, H = 260, narrow = W < 420, R = narrow ? 22 : 40, T = 12, B = 44;
    let L = 92;
    const stacked = spec.kind === 'bar';
    const x0 = stacked ? spec.x_min - 0.6 : spec.x_min, x1 = stacked ? spec.x_max + 0.6 : spec.x_max;
    let lo = Infinity, hi = -Infinity;
    for (const col of ys) for (const v of col) if (v !== null && v !== undefined && (!spec.log_y || v > 0)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const hl = this.extras.hline;
    if (hl && Number.isFinite(hl.y) && (!spec.log_y || hl.y > 0) && hl.y <= (hi > 0 ? hi * 1.5 : hl.y)) { lo = Math.min(lo, hl.y); hi = Math.max(hi, hl.y); }
    let y0, y1;
    if (!Number.isFinite(lo)) [y0, y1] = spec.log_y ? [1, 10] : [0, 1];
    else if (spec.log_y) [y0, y1] = [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi) + 1e-9)];
    else [y0, y1] = [Math.min(0, lo), hi > 0 ? hi * 1.08 : 1];
    const scale = (v0, v1, p0, p1, log) => {
      const f = log ? Math.log10 : (v) => v;
      const a = f(v0), b = f(v1), k = (p1 - p0) / (b - a || 1);
      return [(v) => p0 + (f(v) - a) * k, (p) => { const t = a + (p - p0) / k; return log ? 10 ** t : t; }];
    };
    const yt = ticksFor(y0, y1, spec.log_y, (H - T - B) / 40);
    if (narrow) {
      const m = (this.measurer ||= document.createElement('canvas').getContext('2d'));
      m.font = '11px system-ui, sans-serif';
      L = Math.min(92, Math.ceil(Math.max(0, ...yt.map((v) => m.measureText(this.fmt(v, spec.y_unit, 3)).width)) + 6 + 22));
    }
    [this.xPos, this.xFromPos] = scale(x0, x1, L, W - R, spec.log_x);
    [this.yPos] = scale(y0, y1, H - B, T, spec.log_y);
    return { W, H, L, R, T, B, xs, ys, x0, x1, y0, y1, xt: stacked ? xs : ticksFor(x0, x1, spec.log_x, (W - L - R) / 70), yt };
  }

  nearest(x) {
    const xs = this.data && this.data.xs;
    if (!xs || !xs.length || typeof x !== 'number') return null;
    let best = 0;
    for (let i = 1; i < xs.length; i++) if (Math.abs(xs[i] - x) < Math.abs(xs[best] - x)) best = i;
    return best;
  }

  draw() {
    if (!this.canvas || !this.plotData) return;
    const { spec, fmt } = this;
    const g = this.layout();
    const dpr = devicePixelRatio || 1;
    const c = this.canvas;
    c.width = Math.round(g.W * dpr);
    c.height = Math.round(g.H * dpr);
    c.style.width = `${g.W}px`;
    c.style.height = `${g.H}px`;
    const ctx = c.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    // Read once per chart (and again when the colour scheme changes): reading computed style
    // after a scenario change had rewritten the cards forced a style recalculation on every
    // draw, 1.5 ms of each change's frame with eight charts.
    // (A chart not yet in the document reads no style: it is not kept.)
    const t = this.theme || theme(this.el);
    if (!this.theme && this.el.isConnected) this.theme = t;
    this.colors = t;
    ctx.fillStyle = t.bg;
    ctx.fillRect(0, 0, g.W, g.H);
    ctx.font = '11px system-ui, sans-serif';
    ctx.lineWidth = 1;
    const fmtX = (v) => this.xText(v, 3), fmtY = (v) => fmt(v, spec.y_unit, 3);
    const left = g.L, right = g.W - g.R, top = g.T, bottom = g.H - g.B;
    // Grid and tick labels.
    ctx.strokeStyle = t.grid;
    ctx.fillStyle = t.text;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    // A label that would overlap the one before it is left out (its grid line stays).
    let lastRight = -Infinity;
    for (const tick of g.xt) {
      const px = this.xPos(tick);
      if (px < left - 0.5 || px > right + 0.5) continue;
      ctx.beginPath(); ctx.moveTo(px, top); ctx.lineTo(px, bottom); ctx.stroke();
      const text = fmtX(tick), w = ctx.measureText(text).width;
      if (px - w / 2 < lastRight + 4) continue;
      ctx.fillText(text, px, bottom + 4);
      lastRight = px + w / 2;
    }
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const tick of g.yt) {
      const py = this.yPos(tick);
      if (py < top - 0.5 || py > bottom + 0.5) continue;
      ctx.beginPath(); ctx.moveTo(left, py); ctx.lineTo(right, py); ctx.stroke();
      ctx.fillText(fmtY(tick), left - 6, py);
    }
    ctx.strokeStyle = t.frame;
    ctx.strokeRect(left, top, right - left, bottom - top);
    // Axis titles.
    ctx.fillStyle = t.title;
    ctx.font = '12px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.fillText(spec.x_label, (left + right) / 2, g.H - 2);
    ctx.save();
    ctx.translate(12, (top + bottom) / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'top';
    ctx.fillText(spec.y_label, 0, -8);
    ctx.restore();
    // Data, clipped to the plot area.
    ctx.save();
    ctx.beginPath(); ctx.rect(left, top, right - left, bottom - top); ctx.clip();
    const stacked = spec.kind === 'bar';
    const barW = stacked ? Math.min(80, 0.6 * Math.abs(this.xPos(g.x0 + 1) - this.xPos(g.x0))) : 0;
    g.ys.forEach((col, si) => {
      const color = this.series[si].color;
      if (stacked) {
        ctx.fillStyle = color + 'cc';
        col.forEach((v, i) => {
          if (v === null || v === undefined) return;
          const px = this.xPos(g.xs[i]), py = this.yPos(v), base = this.yPos(Math.max(g.y0, 0));
          ctx.fillRect(px - barW / 2, py, barW, base - py);
        });
        return;
      }
      ctx.strokeStyle = color;
      ctx.lineWidth = 2;
      ctx.beginPath();
      let pen = false;
      col.forEach((v, i) => {
        if (v === null || v === undefined || (spec.log_y && v <= 0)) { pen = false; return; }
        const px = this.xPos(g.xs[i]), py = this.yPos(v);
        pen ? ctx.lineTo(px, py) : ctx.moveTo(px, py);
        pen = true;
      });
      ctx.stroke();
      // Sparse lines (a Pareto front of layouts, a few swept points) show their points too.
      if ((right - left) / g.xs.length > 12) {
        ctx.fillStyle = color;
        col.forEach((v, i) => {
          if (v === null || v === undefined || (spec.log_y && v <= 0)) return;
          ctx.beginPath(); ctx.arc(this.xPos(g.xs[i]), this.yPos(v), 3, 0, 2 * Math.PI); ctx.fill();
        });
      }
    });
    ctx.restore();
    ctx.lineWidth = 1;
    const idx = this.hoverIdx ?? this.legendIdx;
    if (this.hoverIdx != null) {
      const px = this.xPos(g.xs[idx]);
      ctx.strokeStyle = t.frame;
      ctx.setLineDash([3, 3]);
      ctx.beginPath(); ctx.moveTo(px, top); ctx.lineTo(px, bottom); ctx.stroke();
      ctx.setLineDash([]);
    }
    this.drawExtras(ctx, { left, right, top, bottom });
    // The legend reads the values at the user's x, or under the pointer.
    const cells = this.legend.querySelectorAll('td');
    if (this.isStale) for (const td of cells) td.textContent = '—';
    else if (idx != null && cells.length) {
      cells[0].textContent = fmtX(g.xs[idx]);
      this.raw.forEach((col, si) => {
        const v = col && col[idx];
        if (cells[si + 1]) cells[si + 1].textContent = v === null || v === undefined ? '—' : fmtY(v);
      });
    }
  }

  // The chart fits its box down to a 320 px phone (WCAG 1.4.10: no sideways scrolling).
  measure() {
    return Math.max(200, Math.min(this.box.clientWidth || 560, 900));
  }

  drawExtras(ctx, box) {
    const { markers, current, hline } = this.extras;
    const t = this.colors;
    const pos = (x, y) => [this.xPos(x), this.yPos(y)];
    const inside = ([px, py]) => px >= box.left && px <= box.right && py >= box.top && py <= box.bottom;
    // A label that would run past the plot's right edge goes to the left of its point.
    const label = (text, px, py, gap) => {
      const w = ctx.measureText(text).width;
      ctx.fillText(text, px + gap + w > box.right + 36 ? px - gap - w : px + gap, py);
    };
    ctx.font = '11px system-ui, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    if (hline) {
      const py = this.yPos(hline.y);
      if (py >= box.top && py <= box.bottom) {
        ctx.strokeStyle = t.title;
        ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(box.left, py); ctx.lineTo(box.right, py); ctx.stroke();
        ctx.setLineDash([]);
        // The label sits on a backing box so bars under it do not make it unreadable.
        const text = `${hline.label}: ${this.fmt(hline.y, this.est.inputs.find((i) => i.name === this.spec.hline_input)?.unit || '', 3)}`;
        const w = ctx.measureText(text).width;
        const tx = box.right - w - 6;
        ctx.fillStyle = t.backing;
        ctx.fillRect(tx - 3, py - 16, w + 6, 14);
        ctx.fillStyle = t.title;
        ctx.fillText(text, tx, py - 5);
      }
    }
    for (const m of markers) {
      const p = pos(m.x, m.y);
      if (!inside(p)) continue;
      ctx.fillStyle = t.title;
      ctx.beginPath(); ctx.arc(p[0], p[1], 4, 0, 2 * Math.PI); ctx.fill();
      label(m.label, p[0], p[1] - 6, 6);
    }
    for (const c of current) {
      const p = pos(c.x, c.y);
      if (!inside(p)) continue;
      // A hollow diamond in a colour of its own: no series line and no marker (a dot) looks so.
      ctx.strokeStyle = t.you;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.moveTo(p[0], p[1] - 7); ctx.lineTo(p[0] + 7, p[1]); ctx.lineTo(p[0], p[1] + 7); ctx.lineTo(p[0] - 7, p[1]); ctx.closePath();
      ctx.stroke();
      ctx.lineWidth = 1;
      ctx.fillStyle = t.you;
      label('your inputs', p[0], p[1] + 14, 8);
    }
  }

  resize(width) {
    if (width === this.w) return;
    this.w = width;
    this.draw();
  }
}

// Tick values: on a log axis powers of ten, thinned to about `room` but never fewer than three
// (with 2× and 5×, then 2× to 9×, where the axis spans too few decades for three); else 1-2-5
// steps giving about `room` ticks.
export function ticksFor(lo, hi, log, room) {
  const out = [];
  if (log) {
    const a = Math.floor(Math.log10(lo)), b = Math.ceil(Math.log10(hi));
    const within = (mult) => {
      const v = [];
      for (let e = a; e <= b; e++) for (const m of mult) { const x = m * 10 ** e; if (x >= lo * (1 - 1e-9) && x <= hi * (1 + 1e-9)) v.push(Number(x.toPrecision(12))); }
      return v;
    };
    let ticks = within([1]);
    if (ticks.length < 3 || b - a < 3) {
      const more = within([1, 2, 5]);
      ticks = more.length >= 3 || b - a < 3 ? more : within([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
    if (ticks.length < 3) ticks = within([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Thin evenly to the room there is, keeping at least three (first, middle, last).
    const want = Math.max(3, Math.floor(room));
    // Thin to the room there is: powers of ten every s-th decade; a 1-2-5 (or finer) row as the
    // first, the last and evenly between them, so the labels spread over the whole axis.
    if (ticks.length > want) {
      const n = ticks.length;
      if (ticks.every((v) => Number.isInteger(Math.log10(v)) || Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9)) {
        let step = Math.ceil((n - 1) / (want - 1));
        while (step > 1 && Math.floor((n - 1) / step) + 1 < 3) step--;
        ticks = ticks.filter((_, i) => i % step === 0);
      } else ticks = [...new Set(Array.from({ length: want }, (_, k) => Math.round((k * (n - 1)) / (want - 1))))].map((i) => ticks[i]);
    }
    return ticks;
  }
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / Math.max(2, Math.floor(room)), p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : Number(v.toPrecision(12)));
  return out;
}
