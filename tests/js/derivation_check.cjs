// Reads a derivation step's substituted formula (the TeX the core writes: core/base/derivation)
// and computes it from the numbers it prints, so that a test can compare the result with the
// step's own value: the property that makes "shows its work" true. Each printed operand is read
// back through the core's own unit parser (api.parse), in the base unit its display unit names.
//
// It reads arithmetic: + − · × /, \frac, powers, parentheses (\left( … \right) or plain),
// \max/\min, \lceil/\lfloor, \sqrt and implicit products. A step with symbols left in its
// substituted form (a sum over i, a named function such as ErlangC) is "unread": the caller
// counts those rather than failing.
'use strict';

const PREFIX = ['', 'k', 'M', 'G', 'T', 'P', 'E', 'Z', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'm', 'µ', 'n'];
const TIME = ['s', 'ms', 'µs', 'ns', 'min', 'h', 'days', 'years'];

class Unread extends Error {}

function checker(api) {
  const units = [...new Set(api.list().estimators.flatMap((e) => [...e.inputs, ...e.outputs].map((x) => x.unit)).filter(Boolean))];

  // A printed operand: 14{,}336 · 8.4\times10^{23}\,\text{FLOP} · 50\,\% · 2\,\text{B}.
  function operand(tex) {
    const s = tex.replace(/\{,\}/g, ',').replace(/\\times\s*10\^\{(-?\d+)\}/g, 'e$1').replace(/\\,/g, ' ')
      .replace(/\\text\{([^}]*)\}/g, '$1').replace(/\\%/g, '%').trim();
    const m = /^([-+]?[\d.,]+(?:e-?\d+)?)\s*(.*)$/.exec(s);
    if (!m) return null;
    if (!m[2]) return Number(m[1].replace(/,/g, ''));
    const shown = m[2].trim();
    const base = shown === '%' ? 'frac' : TIME.includes(shown) ? 's' : units.find((u) => PREFIX.some((p) => p + u === shown));
    if (!base) return null;
    const r = api.parse(s, base);
    return r && r.ok ? r.value : null;
  }

  function evaluate(s, snap) {
    let i = 0;
    const ws = () => {
      for (;;) {
        if (s[i] === ' ') i++;
        else if (s.startsWith('\\,', i) || s.startsWith('\\;', i) || s.startsWith('\\ ', i)) i += 2;
        else return;
      }
    };
    const eat = (t) => { ws(); if (s.startsWith(t, i)) { i += t.length; return true; } return false; };
    const need = (t) => { if (!eat(t)) throw new Unread(`expected ${t} at ${i}`); };
    const group = () => {
      ws();
      if (s[i] !== '{') throw new Unread(`expected { at ${i}`);
      let depth = 0, j = i;
      for (; j < s.length; j++) {
        if (s[j] === '{') depth++;
        else if (s[j] === '}' && --depth === 0) break;
      }
      const inner = s.slice(i + 1, j);
      i = j + 1;
      return inner;
    };
    // The printed operands are rounded, so a quotient that is a whole number may read as 90.009
    // and one just above it as 83.07: with `snap`, a value within that rounding of a whole
    // number is that number. check() accepts the step if either reading gives its value.
    const round = (f) => (v) => (snap && Math.abs(v - Math.round(v)) <= 1e-3 * Math.abs(v) ? Math.round(v) : f(v));
    function primary() {
      ws();
      if (s[i] === '{') { const g = group(); const v = operand(g); return v !== null ? v : evaluate(g, snap); }
      if (eat('\\frac')) { const a = evaluate(group(), snap); return a / evaluate(group(), snap); }
      if (eat('\\sqrt')) return Math.sqrt(evaluate(group(), snap));
      for (const [open, close, f] of [['\\left(', '\\right)', (v) => v], ['\\left[', '\\right]', (v) => v],
        ['\\left\\lceil', '\\right\\rceil', round(Math.ceil)], ['\\lceil', '\\rceil', round(Math.ceil)],
        ['\\left\\lfloor', '\\right\\rfloor', round(Math.floor)], ['\\lfloor', '\\rfloor', round(Math.floor)], ['(', ')', (v) => v]]) {
        if (eat(open)) { const v = expr(); need(close); return f(v); }
      }
      for (const [name, f] of [['\\max', Math.max], ['\\min', Math.min]]) {
        if (eat(name)) {
          const close = eat('\\left(') ? '\\right)' : eat('(') ? ')' : null;
          if (!close) throw new Unread(`${name} without parentheses`);
          const args = [expr()];
          while (eat(',')) args.push(expr());
          need(close);
          return f(...args);
        }
      }
      const m = /^\d[\d.]*(\{,\}\d+)*(\\times\s*10\^\{-?\d+\})?/.exec(s.slice(i));
      if (m) { i += m[0].length; return operand(m[0]); }
      throw new Unread(`a symbol at ${i}: ${s.slice(i, i + 20)}`);
    }
    function power() {
      let b = primary();
      ws();
      if (s[i] === '^') { i++; ws(); b = Math.pow(b, s[i] === '{' ? evaluate(group(), snap) : primary()); }
      return b;
    }
    function unary() { if (eat('-')) return -unary(); if (eat('+')) return unary(); return power(); }
    function term() {
      let v = unary();
      for (;;) {
        if (eat('\\cdot') || eat('\\times')) v *= unary();
        else if (eat('/')) v /= unary();
        else {
          ws();
          if (s[i] === '{' || s[i] === '(' || s.startsWith('\\frac', i) || s.startsWith('\\left(', i)) v *= unary();
          else return v;
        }
      }
    }
    function expr() {
      let v = term();
      for (;;) {
        if (eat('+')) v += term();
        else if (eat('-')) v -= term();
        else return v;
      }
    }
    const v = expr();
    ws();
    if (i < s.length) throw new Unread(`unread text at ${i}: ${s.slice(i, i + 20)}`);
    return v;
  }

  // {status: 'agrees' | 'disagrees' | 'unread' | 'no value', computed, why}. Operands print four
  // significant figures, so a product of several may round by about 0.05 % each: 1 % tolerance.
  return function check(step) {
    if (!step.substituted || typeof step.value !== 'number') return { status: 'no value' };
    const at = step.substituted.indexOf(' = ');
    if (at < 0) return { status: 'unread', why: 'no " = "' };
    const agrees = (x) => {
      const scale = Math.max(Math.abs(step.value), Math.abs(x));
      return scale < 1e-300 || Math.abs(x - step.value) <= 0.01 * scale;
    };
    let computed;
    try {
      computed = evaluate(step.substituted.slice(at + 3), false);
      if (Number.isFinite(computed) && !agrees(computed)) {
        const snapped = evaluate(step.substituted.slice(at + 3), true);
        if (agrees(snapped)) computed = snapped;
      }
    } catch (e) {
      if (e instanceof Unread) return { status: 'unread', why: e.message };
      throw e;
    }
    if (!Number.isFinite(computed)) return { status: 'unread', why: 'not a finite number' };
    return { status: agrees(computed) ? 'agrees' : 'disagrees', computed };
  };
}

module.exports = { checker };
