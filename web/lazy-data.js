// Data the page needs only on first use (docs/architecture.md, Budgets: not part of the first screen): the practice
// bank and the rendered docs. A served page fetches it from a file beside the page; the single
// file carries the same text as an inert deflated blob (<script type="application/octet-stream"
// id="napkin-NAME">, written by vite.config.mjs) that DecompressionStream inflates. Nothing
// parses it before it is asked for.

const texts = new Map();  // name → promise of its text, one load each

// The inflated contents of a deflated, base64-encoded blob, as a Response to read.
function inflated(base64) {
  const b = base64.trim();
  const bytes = Uint8Array.fromBase64 ? Uint8Array.fromBase64(b) : Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw')));
}

async function fetched(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${r.statusText}`);
  return r;
}

export const fetchText = (url) => fetched(url).then((r) => r.text());

// The contents of `name` read by `read` (text or arrayBuffer): the page's blob when it has one,
// else the file at `url`. One load each; a failed fetch may be retried.
function lazy(name, url, read) {
  if (!texts.has(name)) {
    const blob = typeof document !== 'undefined' && document.getElementById('napkin-' + name);
    const p = (blob ? Promise.resolve(inflated(blob.textContent)) : fetched(url)).then((r) => r[read]());
    p.catch(() => texts.delete(name));
    texts.set(name, p);
  }
  return texts.get(name);
}

export const lazyText = (name, url) => lazy(name, url, 'text');

// createNapkin's `deferredWasm` (wasm/instantiate.js): the module's practice and search code,
// compiled on first use from the page's blob or from `url` (napkin-deferred.wasm beside the
// page or the embed script).
export function deferredWasm(url = './napkin-deferred.wasm') {
  return () => lazy('wasm-deferred', url, 'arrayBuffer').then((b) => WebAssembly.compile(b));
}
