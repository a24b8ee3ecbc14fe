// Derivation formulas as MathML, from the small TeX the core writes (core/base/derivation.cpp):
// letters, numbers with {,} group separators, _ ^ { }, \frac, \sqrt, \overline, \text, \left…\right,
// \cdot \times \approx \ge \le \sum \min \max, ceilings, Greek letters, \, \% and \$ (a cost:
// `\$ = H \cdot p`). Browsers render MathML Core natively, so no fonts or library ship: Temml
// did the same for 50 KB gzipped, a sixth of the single file's old 300 KB budget. A
// command this file does not know is reported, never guessed: the formula then shows as its
// TeX source (tests/js/tex.test.cjs converts every formula the registry's examples, presets
// and inputs moved off their examples produce, reads every command in core/'s sources, and
// finds none).
//
// parse() returns a plain tree ([tag, attrs, ...children] or a string), so node tests can
// check it; toMathML() builds it with DOM calls (no markup strings).

const SYMBOLS = {
  cdot: ['mo', '·'], times: ['mo', '×'], approx: ['mo', '≈'], sum: ['mo', '∑'],
  ge: ['mo', '≥'], le: ['mo', '≤'],
  lceil: ['mo', '⌈'], rceil: ['mo', '⌉'], lfloor: ['mo', '⌊'], rfloor: ['mo', '⌋'],
  // The Greek letters, all of them: the core adds one now and then (η, an efficiency, came
  // after α β γ λ ρ σ), and an unknown one would show as raw TeX.
  ...Object.fromEntries(Object.entries({
    alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ϵ', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ',
    iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ',
    upsilon: 'υ', phi: 'ϕ', varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω',
  }).map(([k, v]) => [k, ['mi', v]])),
  ...Object.fromEntries(Object.entries({
    Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Xi: 'Ξ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
  }).map(([k, v]) => [k, ['mi', v, { mathvariant: 'normal' }]])),
  min: ['mi', 'min'], max: ['mi', 'max'], log: ['mi', 'log'], ln: ['mi', 'ln'],
  '%': ['mo', '%'], $: ['mi', '$', { mathvariant: 'normal' }], ',': ['mspace', null, { width: '0.1667em' }], ' ': ['mspace', null, { width: '0.25em' }],
  '{': ['mo', '{'], '}': ['mo', '}'],
};
const FENCES = { '(': '(', ')': ')', '[': '[', ']': ']', '|': '|', '.': '', lceil: '⌈', rceil: '⌉', lfloor: '⌊', rfloor: '⌋', '{': '{', '}': '}' };
const OPERATORS = { '-': '−', '+': '+', '=': '=', '/': '/', '*': '∗', '(': '(', ')': ')', ',': ',', ':': ':', '<': '<', '>': '>', '·': '·', '×': '×', "'": '′', '[': '[', ']': ']', '|': '|' };

export class TexError extends Error {}

export function parse(tex) {
  let i = 0;
  const s = String(tex);
  const fail = (what) => { throw new TexError(`${what} at ${i} in “${s}”`); };
  const skip = () => { while (s[i] === ' ') i++; };
  const command = () => {
    i++;  // the backslash
    if (/[a-zA-Z]/.test(s[i] || '')) {
      const start = i;
      while (/[a-zA-Z]/.test(s[i] || '')) i++;
      return s.slice(start, i);
    }
    if (i >= s.length) fail('a lone backslash');
    return s[i++];
  };
  const braced = () => {  // {…} as raw text (for \text)
    skip();
    if (s[i] !== '{') fail('\\text without {');
    let depth = 0;
    const start = i + 1;
    for (; i < s.length; i++) {
      if (s[i] === '{') depth++;
      else if (s[i] === '}' && --depth === 0) return s.slice(start, i++);
    }
    return fail('an unclosed {');
  };
  const number = () => {
    let text = '';
    while (i < s.length) {
      if (/[0-9.]/.test(s[i])) text += s[i++];
      else if (s.startsWith('{,}', i) && /[0-9]/.test(s[i + 3] || '')) { text += ','; i += 3; }
      else break;
    }
    return ['mn', {}, text];
  };
  const fence = () => {
    skip();
    let d;
    if (s[i] === '\\') d = command();
    else d = s[i++];
    if (!(d in FENCES)) fail(`the delimiter “${d}”`);
    return ['mo', { fence: 'true', stretchy: 'true' }, FENCES[d]];
  };
  // One atom: what a ^ or _ attaches to, or is attached.
  const atom = () => {
    skip();
    const c = s[i];
    if (c === undefined) fail('a missing argument');
    if (c === '{') {
      i++;
      const kids = row('}');
      i++;
      return kids.length === 1 ? kids[0] : ['mrow', {}, ...kids];
    }
    if (/[0-9.]/.test(c)) return number();
    if (/[a-zA-Z]/.test(c)) { i++; return ['mi', {}, c]; }
    if (c === '\\') {
      const name = command();
      if (name === 'text') return ['mtext', {}, braced()];
      if (name === 'frac') return ['mfrac', {}, atom(), atom()];
      if (name === 'sqrt') return ['msqrt', {}, atom()];
      // A mean: a bar over its argument.
      if (name === 'overline') return ['mover', { accent: 'true' }, atom(), ['mo', {}, '¯']];
      if (name === 'left') {
        const open = fence();
        const kids = row('\\right');
        i += '\\right'.length;
        return ['mrow', {}, open, ...kids, fence()];
      }
      const sym = SYMBOLS[name];
      if (!sym) fail(`the command \\${name}`);
      return [sym[0], { ...(sym[2] || {}) }, ...(sym[1] === null ? [] : [sym[1]])];
    }
    if (c in OPERATORS) { i++; return ['mo', {}, OPERATORS[c]]; }
    if (c === '}' || c === '^' || c === '_') fail(`a stray “${c}”`);
    i++;
    return ['mi', {}, c];  // µ and other single symbols
  };
  // Atoms with their scripts until `end` ('}' or '\right') or the end of the text.
  function row(end) {
    const kids = [];
    for (;;) {
      skip();
      if (i >= s.length) {
        if (end) fail(`a missing ${end}`);
        return kids;
      }
      if (end && s.startsWith(end, i)) return kids;
      let base = atom();
      let sub = null, sup = null;
      for (;;) {
        skip();
        if (s[i] === '_' && !sub) { i++; sub = atom(); } else if (s[i] === '^' && !sup) { i++; sup = atom(); } else break;
      }
      const large = base[0] === 'mo' && base[2] === '∑';
      if (sub && sup) base = [large ? 'munderover' : 'msubsup', {}, base, sub, sup];
      else if (sub) base = [large ? 'munder' : 'msub', {}, base, sub];
      else if (sup) base = [large ? 'mover' : 'msup', {}, base, sup];
      kids.push(base);
    }
  }
  const kids = row(null);
  return ['math', { display: 'inline', displaystyle: 'true' }, ...kids];
}

const NS = 'http://www.w3.org/1998/Math/MathML';

function build(node) {
  if (typeof node === 'string') return document.createTextNode(node);
  const [tag, attrs, ...kids] = node;
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const k of kids) el.append(build(k));
  return el;
}

// The formula as a <math> element; a formula this file cannot read shows as its TeX source.
export function toMathML(tex) {
  try {
    return build(parse(tex));
  } catch (e) {
    if (!(e instanceof TexError)) throw e;
    const code = document.createElement('code');
    code.textContent = tex;
    return code;
  }
}
