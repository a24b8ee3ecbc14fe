// embed.html#problem=ID&seed=N or embed.html#estimator=ID[&input=value…][&origin=https://host]:
// one element for an iframe, which reports its height to the parent page so the iframe can
// size itself.
//
// The hash is hostile input: it becomes attributes only where it names an input of the chosen
// estimator (or one of the element's documented attributes), never an arbitrary name — an
// `onmouseover=` or a `style=` in the hash would otherwise run script or restyle the frame.
// Height and score messages go to `origin=` when given, else to any parent ('*'): neither is
// a secret, and an embedding site that cares names itself.
import pageCss from './style.css?inline';
import { defineElements } from './elements.js';

const CALCULATOR_ATTRIBUTES = ['charts', 'units'];
const MAX_VALUE = 200;  // an input's text; longer values are dropped, not echoed

let params;
try {
  params = new URLSearchParams(location.hash.replace(/^#/, '').slice(0, 4096));
} catch {
  params = new URLSearchParams();
}
// napkin-wasm.js carries the wasm deflated and compiles it as it loads (vite.config.mjs).
/* global napkinWasmModule */
const api = Promise.resolve(typeof napkinWasmModule === 'function' ? napkinWasmModule() : null)
  .then((w) => createNapkin(w ? { wasmModule: w } : {}))
  .then((m) => {
    window.napkin = m;
    document.dispatchEvent(new CustomEvent('napkin-ready', { detail: m }));
    return m;
  });
defineElements(api, [pageCss]);

function element(registry) {
  if (params.has('problem')) {
    const el = document.createElement('napkin-problem');
    el.setAttribute('problem', params.get('problem'));
    const seed = params.get('seed') || '0';
    el.setAttribute('seed', /^\d{1,10}$/.test(seed) ? seed : '0');
    return el;
  }
  const el = document.createElement('napkin-calculator');
  const id = params.get('estimator') || 'train.time';
  el.setAttribute('estimator', id);
  const est = registry.estimators.find((e) => e.id === id);
  const allowed = new Set([...CALCULATOR_ATTRIBUTES, ...(est ? est.inputs.map((i) => i.name) : [])]);
  for (const [k, v] of params)
    if (allowed.has(k) && v.length <= MAX_VALUE) el.setAttribute(k, v);
  return el;
}

// '*' when no origin is given; the origin of an http(s) URL; null (no messages) otherwise.
function targetOrigin(text) {
  if (text === null) return '*';
  try {
    const u = new URL(text);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

api.then((m) => {
  document.getElementById('embed').replaceChildren(element(m.list()));
  const target = targetOrigin(params.get('origin'));
  if (window.parent !== window && target) {
    const report = () =>
      window.parent.postMessage({ type: 'napkin-height', height: document.documentElement.scrollHeight }, target);
    new ResizeObserver(report).observe(document.body);
    report();
    // Each checked answer, for a course page that records progress.
    document.addEventListener('napkin-score', (e) =>
      window.parent.postMessage({ type: 'napkin-score', ...e.detail }, target));
  }
});
