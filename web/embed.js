// The embed script that a study site includes to get <napkin-calculator> and <napkin-problem>
// (Emscripten's glue is prepended at build time). It compiles napkin.wasm.deflate from beside itself;
// the practice code (napkin-deferred.wasm) and the problem bank (napkin-problems.json), beside it
// too, load when a <napkin-problem> first needs them. It also publishes window.napkin and fires napkin-ready on document, like the page.
import pageCss from './style.css?inline';
import { defineElements } from './elements.js';
import { deferredWasm } from './lazy-data.js';

const script = document.currentScript;
const beside = (name) => new URL(name, script && script.src ? script.src : document.baseURI).href;
const problemsUrl = beside('napkin-problems.json');
const wasmUrl = beside('napkin.wasm.deflate');

// The core arrives deflated (vite.config.mjs) and is inflated as it streams in;
// compileStreaming compiles while the bytes arrive, and where it cannot (an old browser) the
// inflated bytes are compiled whole.
const wasmModule = fetch(wasmUrl).then((r) => {
  if (!r.ok) throw new Error(`${wasmUrl}: ${r.status} ${r.statusText}`);
  const wasm = new Response(r.body.pipeThrough(new DecompressionStream('deflate-raw')),
    { headers: { 'Content-Type': 'application/wasm' } });
  return WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(wasm)
    : wasm.arrayBuffer().then((b) => WebAssembly.compile(b));
}).catch((e) => {
  throw new Error(`napkin-embed.js could not load napkin.wasm.deflate from beside it (${e.message || e}); copy napkin.wasm.deflate, napkin-deferred.wasm and napkin-problems.json next to napkin-embed.js, and serve the page over http`);
});

// The practice code (wasm/split.mjs) loads when a <napkin-problem> first needs it.
const api = wasmModule.then((m) => createNapkin({ wasmModule: m, deferredWasm: deferredWasm(beside('napkin-deferred.wasm')) })).then((m) => {
  window.napkin = m;
  document.dispatchEvent(new CustomEvent('napkin-ready', { detail: m }));
  return m;
});
defineElements(api, [pageCss], { problemsUrl });
