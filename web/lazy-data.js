// Data the page needs only on first use (SPEC §7: not part of the first screen): the practice
// bank and the rendered docs. A served page fetches it from a file beside the page; the single
// file carries the same text as an inert deflated blob (<script type="application/octet-stream"
// id="napkin-NAME">, written by vite.config.mjs) that DecompressionStream inflates. Nothing
// parses it before it is asked for.

const texts = new Map();  // name → promise of its text, one load each

// Text of a deflated, base64-encoded blob.
export async function inflate(base64) {
  const b = base64.trim();
  const bytes = Uint8Array.fromBase64 ? Uint8Array.fromBase64(b) : Uint8Array.from(atob(b), (c) => c.charCodeAt(0));
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
}

export async function fetchText(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status} ${r.statusText}`);
  return r.text();
}

// The text of `name`: the page's blob when it has one, else the file at `url`.
export function lazyText(name, url) {
  if (!texts.has(name)) {
    const blob = typeof document !== 'undefined' && document.getElementById('napkin-' + name);
    const p = blob ? inflate(blob.textContent) : fetchText(url);
    p.catch(() => texts.delete(name));  // a failed fetch may be retried
    texts.set(name, p);
  }
  return texts.get(name);
}
