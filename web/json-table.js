// An editor for a text input that holds a JSON array of objects (e.g. the stages of
// serve.pipeline): one row per item with add, remove and reorder, kept in sync with the JSON
// text, which stays editable underneath. The core validates the result; this only edits it.
//
// The text may come from a permalink, so it can be hostile: 600 rows with a key each once
// built 600 × 600 inputs and froze the tab (issue #30.13). The editor shows at most MAX_ROWS
// rows (serve.pipeline takes at most 100 stages) and MAX_COLUMNS columns (the keys in the
// order they first appear; a stage has at most four), says what it left out, and keeps every
// row and key in the JSON text, where the core reports what it refuses.
import { h } from './dom.js';

export const MAX_ROWS = 100;
export const MAX_COLUMNS = 6;

export function parseRows(text) {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) && v.every((r) => r && typeof r === 'object' && !Array.isArray(r)) ? v : null;
  } catch {
    return null;
  }
}

// The keys of the rows in the order they first appear (a Set: a hostile text has many).
export function columnsOf(rows) {
  const keys = new Set();
  for (const r of rows) for (const k of Object.keys(r)) keys.add(k);
  return [...keys];
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
    this.setColumns();
    this.render();
  }

  // The shown columns: the first MAX_COLUMNS keys of the shown rows; allColumns counts them all.
  setColumns() {
    const all = columnsOf(this.rows);
    this.allColumns = all.length;
    this.columns = all.slice(0, MAX_COLUMNS);
  }

  // What the table leaves out, in words, or null when it shows everything.
  capMessage() {
    const rows = this.rows.length > MAX_ROWS;
    const cols = this.allColumns > MAX_COLUMNS;
    if (!rows && !cols) return null;
    const parts = [];
    if (rows) parts.push(`the first ${MAX_ROWS} of ${this.rows.length} rows (the calculator takes at most ${MAX_ROWS})`);
    if (cols) parts.push(`${MAX_COLUMNS} of ${this.allColumns} columns`);
    return `This table shows ${parts.join(' and ')}. The JSON text below still holds all of them; edit it there.`;
  }

  emit() {
    this.onChange(JSON.stringify(this.rows));
  }

  render() {
    const head = h('tr', {}, this.columns.map((c) => h('th', { scope: 'col', text: c })), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden', text: 'Row tools' })));
    const body = this.rows.slice(0, MAX_ROWS).map((row, i) =>
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
    const cap = this.capMessage();
    this.el.replaceChildren(
      ...(cap ? [h('p', { class: 'hint json-table-cap', role: 'note', text: cap })] : []),
      h('table', { class: 'mini editable' }, h('thead', {}, head), h('tbody', {}, body)),
      // A row past the cap would be added out of sight, and the core refuses it anyway.
      h('button', { type: 'button', class: 'add-row', text: '+ Add a row', disabled: this.rows.length >= MAX_ROWS, onclick: () => this.add() }));
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
    this.setColumns();
    this.render();
    this.emit();
  }
}
