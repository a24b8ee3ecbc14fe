// The practice bank loads on first use (SPEC §7: it is not part of the first screen). A served
// page fetches problems.json beside it; the single file carries the same text as an inert
// deflated blob (<script type="application/octet-stream" id="napkin-problems">, written by
// vite.config.mjs) that DecompressionStream inflates; the embed script fetches
// napkin-problems.json beside itself. A course's own files load the same way
// (<napkin-problem src="week3.json">, or inline JSON): see docs/authoring.md.

const loads = new Map();  // what has been asked for, by URL or text: one load each

// Text of a deflated, base64-encoded blob.
async function inflate(base64) {
  const b = base64.trim();
  const bytes = Uint8Array.fromBase64 ? Uint8Array.fromBase64(b) : Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
}

async function fetchText(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${r.statusText}`);
  return r.text();
}

// Loads one problem file into the module, once. Resolves to {loaded, ids, errors}; a file that
// cannot be fetched resolves to {errors: [why]}, never rejects.
function loadOnce(api, key, text) {
  if (!loads.has(key))
    loads.set(key, text().then((t) => api.loadProblems(t)).catch((e) => ({ loaded: 0, ids: [], errors: [String(e && e.message ? e.message : e)] })));
  return loads.get(key);
}

// The built-in bank: `url` is where a served page finds it (the embed passes its own).
export function builtinProblems(api, url = './problems.json') {
  const blob = typeof document !== 'undefined' && document.getElementById('napkin-problems');
  return loadOnce(api, 'builtin', () => (blob ? inflate(blob.textContent) : fetchText(url)));
}

// A course's file by URL (relative to the host page), or its text given inline.
export function courseProblems(api, { src, text }) {
  if (src) {
    const url = new URL(src, document.baseURI).href;
    return loadOnce(api, url, () => fetchText(url));
  }
  return loadOnce(api, 'inline:' + text, () => Promise.resolve(text));
}
