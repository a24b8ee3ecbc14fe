// The embed script that a study site includes to get <napkin-calculator> and <napkin-problem>
// (Emscripten's glue and wasm/load-beside.js are prepended at build time), which compile
// napkin.wasm.deflate from beside it;
// the practice code (napkin-deferred.wasm) and the problem bank (napkin-problems.json), beside it
// too, load when a <napkin-problem> first needs them. It also publishes window.napkin and fires napkin-ready on document, like the page.
import pageCss from './style.css?inline';
import { defineElements } from './elements.js';
import { deferredWasm } from './lazy-data.js';

/* global napkinWasmModule */
const script = document.currentScript;
const beside = (name) => new URL(name, script && script.src ? script.src : document.baseURI).href;
const problemsUrl = beside('napkin-problems.json');

// The core, fetched and compiled from beside this script by the loader prepended to it
// (wasm/load-beside.js); a failure says what to copy where.
const wasmModule = napkinWasmModule().catch((e) => {
  throw new Error(`napkin-embed.js could not load napkin.wasm.deflate from beside it (${e.message || e}); copy napkin.wasm.deflate, napkin-deferred.wasm and napkin-problems.json next to napkin-embed.js, and serve the page over http`);
});

// The practice code (wasm/split.mjs) loads when a <napkin-problem> first needs it.
const api = wasmModule.then((m) => createNapkin({ wasmModule: m, deferredWasm: deferredWasm(beside('napkin-deferred.wasm')) })).then((m) => {
  window.napkin = m;
  document.dispatchEvent(new CustomEvent('napkin-ready', { detail: m }));
  return m;
});
defineElements(api, [pageCss], { problemsUrl });
