// embed.html#problem=ID&seed=N or embed.html#estimator=ID[&input=value…][&origin=https://host]:
// one element for an iframe, which reports its height to the parent page so the iframe can
// size itself.
//
// The hash is hostile input: it becomes attributes only where it names an input of the chosen
// estimator (set as in-NAME, so an input named like an HTML attribute, such as comm.tp_step's
// `hidden`, cannot hide or restyle the element) or one of the element's documented attributes,
// never an arbitrary name: an `onmouseover=` or a `style=` in the hash would otherwise run
// script or restyle the frame.
//
// Height messages go to `origin=` when given, else to any parent ('*'): a frame's height is no
// secret. Score messages ({problem, seed, verdict, score, mistake}: a learner's answers) go
// only to a declared `origin=`, never to '*' (issue #30.17).
import pageCss from './style.css?inline';
import { defineElements } from './elements.js';
import { deferredWasm } from './lazy-data.js';

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
  .then((w) => createNapkin(w ? { wasmModule: w, deferredWasm: deferredWasm() } : {}))
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
    if (allowed.has(k) && v.length <= MAX_VALUE) el.setAttribute(CALCULATOR_ATTRIBUTES.includes(k) ? k : `in-${k}`, v);
  return el;
}

// The frame's second heading (for screen readers): what it shows, in words.
function title(registry) {
  if (params.has('problem')) return 'Practice problem';
  const est = registry.estimators.find((e) => e.id === (params.get('estimator') || 'train.time'));
  return est ? `Calculator: ${est.title}` : 'Calculator';
}

// The origin of an http(s) URL; null (no messages) for anything else. No origin at all is '*'
// for the height and nothing for scores (see scoreTarget below).
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
  const registry = m.list();
  document.getElementById('embed-title').textContent = title(registry);
  const target = targetOrigin(params.get('origin'));
  const scoreTarget = params.get('origin') === null ? null : target;
  if (window.parent !== window && target) {
    let sent = -1;
    const report = () => {
      const height = document.documentElement.scrollHeight;
      if (height === sent) return;
      sent = height;
      window.parent.postMessage({ type: 'napkin-height', height }, target);
    };
    // Chromium does not render a cross-origin frame that is off screen, so a ResizeObserver
    // alone fires only once the frame is scrolled into view, and the host page jumps then.
    // Reading scrollHeight lays the page out anyway: report as soon as the element rendered,
    // and again when the fonts are in.
    document.addEventListener('napkin-rendered', () => {
      report();
      setTimeout(report, 0);
      document.fonts.ready.then(report);
    });
    new ResizeObserver(report).observe(document.body);
    report();
    // Each checked answer, for a course page that records progress: only to a declared origin.
    if (scoreTarget)
      document.addEventListener('napkin-score', (e) =>
        window.parent.postMessage({ type: 'napkin-score', ...e.detail }, scoreTarget));
  }
  document.getElementById('embed').replaceChildren(element(registry));
});
