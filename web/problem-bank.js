// The practice bank loads on first use (web/lazy-data.js: problems.json beside a served page,
// an inert blob in the single file); the embed script fetches napkin-problems.json beside
// itself. A course's own files load the same way
// (<napkin-problem src="week3.json">, or inline JSON): see docs/authoring.md.

import { fetchText, lazyText } from './lazy-data.js';

const loads = new Map();  // what has been asked for, by URL or text: one load each

// Loads one problem file into the module, once. Resolves to {loaded, ids, errors}; a file that
// cannot be fetched resolves to {errors: [why]}, never rejects.
// The module's practice code loads first where it is a deferred part (wasm/split.mjs).
function loadOnce(api, key, text) {
  if (!loads.has(key))
    loads.set(key, Promise.all([api.loadDeferred(), text()]).then(([code, t]) => {
      if (code.error) throw new Error(code.error.message);
      return api.loadProblems(t);
    }).catch((e) => ({ loaded: 0, ids: [], errors: [String(e && e.message ? e.message : e)] })));
  return loads.get(key);
}

// The built-in bank: `url` is where a served page finds it (the embed passes its own).
export function builtinProblems(api, url = './problems.json') {
  return loadOnce(api, 'builtin', () => lazyText('problems', url));
}

// A course's file by URL (relative to the host page), or its text given inline.
export function courseProblems(api, { src, text }) {
  if (src) {
    const url = new URL(src, document.baseURI).href;
    return loadOnce(api, url, () => fetchText(url));
  }
  return loadOnce(api, 'inline:' + text, () => Promise.resolve(text));
}
