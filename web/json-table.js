// An editor for a text input that holds a JSON array of objects (e.g. the stages of
// serve.pipeline): one row per item with add, remove and reorder, kept in sync with the JSON
// text, which stays editable underneath. The core validates the result; this only edits it.
import { h } from './dom.js';

export function parseRows(text) {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) && v.every((r) => r && typeof r === 'object' && !Array.isArray(r)) ? v : null;
  } catch {
    return null;
  }
}

export function columnsOf(rows) {
  const keys = [];
  for (const r of rows) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  return keys;
}

// A cell's text back to a JSON value: numbers stay numbers, empty means "no such key".
function cellValue(text) {
  const t = text.trim();
  if (t === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) ? Number(t) : t;
}

export class JsonTableEditor {
  constructor(label, onChange) {
    this.onChange = onChange;
    this.rows = [];
    this.columns = [];
    this.el = h('div', { class: 'json-table', role: 'group', 'aria-label': label });
  }

  setText(text) {
    const rows = parseRows(text);
    this.el.hidden = !rows;
    if (!rows) return;
    this.rows = rows.map((r) => ({ ...r }));
    this.columns = columnsOf(this.rows);
    this.render();
  }

  emit() {
    this.onChange(JSON.stringify(this.rows));
  }

  render() {
    const head = h('tr', {}, this.columns.map((c) => h('th', { scope: 'col', text: c })), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden', text: 'Row tools' })));
    const body = this.rows.map((row, i) =>
      h('tr', { dataset: { row: String(i) } },
        this.columns.map((c) => {
          const cell = h('input', { type: 'text', value: row[c] ?? '', 'aria-label': `${c} of row ${i + 1}`, size: 8 });
          cell.addEventListener('input', () => {
            const v = cellValue(cell.value);
            if (v === undefined) delete row[c];
            else row[c] = v;
            this.emit();
          });
          return h('td', {}, cell);
        }),
        h('td', { class: 'row-tools' },
          h('button', { type: 'button', title: 'Move up', 'aria-label': `Move row ${i + 1} up`, disabled: i === 0, text: '↑', onclick: () => this.move(i, -1) }),
          h('button', { type: 'button', title: 'Move down', 'aria-label': `Move row ${i + 1} down`, disabled: i === this.rows.length - 1, text: '↓', onclick: () => this.move(i, 1) }),
          h('button', { type: 'button', title: 'Remove', 'aria-label': `Remove row ${i + 1}`, text: '✕', onclick: () => this.remove(i) }))));
    this.el.replaceChildren(
      h('table', { class: 'mini editable' }, h('thead', {}, head), h('tbody', {}, body)),
      h('button', { type: 'button', class: 'add-row', text: '+ Add a row', onclick: () => this.add() }));
  }

  move(i, by) {
    const j = i + by;
    if (j < 0 || j >= this.rows.length) return;
    [this.rows[i], this.rows[j]] = [this.rows[j], this.rows[i]];
    this.render();
    this.emit();
  }

  remove(i) {
    this.rows.splice(i, 1);
    this.render();
    this.emit();
  }

  add() {
    const last = this.rows[this.rows.length - 1];
    const row = last ? { ...last } : {};
    if ('name' in row || !last) row.name = `Stage ${this.rows.length + 1}`;
    this.rows.push(row);
    this.columns = columnsOf(this.rows);
    this.render();
    this.emit();
  }
}
