// The practice bank loads on first use (web/lazy-data.js: problems.json beside a served page,
// an inert blob in the single file); the embed script fetches napkin-problems.json beside
// itself. A course's own files load the same way
// (<napkin-problem src="week3.json">, or inline JSON): see docs/authoring.md.

import { fetchText, lazyText } from './lazy-data.js';

const loads = new Map();  // what has been asked for, by URL or text: one load each
// What a load that could not happen resolves to (never a rejection).
const failed = (e) => ({ loaded: 0, ids: [], errors: [String(e && e.message ? e.message : e)] });

// Loads one problem file into the module, once. Resolves to {loaded, ids, errors}; a file that
// cannot be fetched resolves to {errors: [why]}, never rejects.
// The module's practice code loads first where it is a deferred part (wasm/split.mjs).
function loadOnce(api, key, text) {
  if (!loads.has(key))
    loads.set(key, Promise.all([api.loadDeferred(), text()]).then(([code, t]) => {
      if (code.error) throw new Error(code.error.message);
      return api.loadProblems(t);
    }).catch(failed));
  return loads.get(key);
}

// The built-in bank: `url` is where a served page finds it (the embed passes its own).
export function builtinProblems(api, url = './problems.json') {
  return loadOnce(api, 'builtin', () => lazyText('problems', url));
}

// One problem of the built-in bank for an embedded element, with the other parts of its group
// (the element shows them): the bank's text is read once and parsed here, and only those
// problems go into the module. Loading all 162 was most of an embedded problem's wait (60 ms
// in node, several times that in a page that has just compiled the module). An id the bank does
// not hold loads nothing, and the element says so.
let bankDoc = null;
export function builtinProblem(api, id, url = './problems.json') {
  api.loadDeferred();  // the practice code compiles while the bank is fetched and parsed
  if (!bankDoc) {
    bankDoc = lazyText('problems', url).then((t) => JSON.parse(t));
    bankDoc.catch(() => { bankDoc = null; });
  }
  return bankDoc.then((doc) => {
    const p = (doc.problems || []).find((q) => q.id === id);
    if (!p) return { loaded: 0, ids: [], errors: [] };
    const picked = p.group ? doc.problems.filter((q) => q.group === p.group) : [p];
    const text = JSON.stringify({ napkin_problems: 1, problems: picked });
    return loadOnce(api, 'builtin:' + (p.group || p.id), () => Promise.resolve(text));
  }, failed);
}

// A course's file by URL (relative to the host page), or its text given inline.
export function courseProblems(api, { src, text }) {
  if (src) {
    const url = new URL(src, document.baseURI).href;
    return loadOnce(api, url, () => fetchText(url));
  }
  return loadOnce(api, 'inline:' + text, () => Promise.resolve(text));
}
