// Small helpers shared by cards and charts: downloads (no network: a Blob URL), CSV text, and
// words for people (a raw key's underscores become spaces; an input's id inside an error
// message is shown as code).
import { h } from './dom.js';

export function download(name, type, data) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function csvCell(v) {
  if (v === undefined || v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

export function toCsv(columns, rows) {
  const lines = [columns.map(csvCell).join(',')];
  for (const r of rows) lines.push(columns.map((c) => csvCell(Array.isArray(r) ? r[columns.indexOf(c)] : r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

// "latency_budget" → "Latency budget": for keys of free-form JSON rows, which have no label.
export function humanize(key) {
  const s = String(key).replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// A message as text nodes, with every occurrence of the input's id (and any other
// snake_case word) in <code>, so an id reads as an id and not as English.
export function withCode(message, name) {
  const parts = [];
  const re = name ? new RegExp(`(\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b|\\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\\b)`, 'g') : /(\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b)/g;
  let last = 0;
  for (const m of String(message).matchAll(re)) {
    if (m.index > last) parts.push(document.createTextNode(message.slice(last, m.index)));
    parts.push(h('code', { text: m[0] }));
    last = m.index + m[0].length;
  }
  if (last < message.length) parts.push(document.createTextNode(message.slice(last)));
  return parts;
}
