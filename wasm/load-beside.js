// The wasm's primary part fetched from beside this script: napkin.wasm.deflate, deflated by
// zopfli at build time (vite.config.mjs). Prepended to Emscripten's glue in a served page's
// napkin-wasm.js (dist/index.html, embed.html) and in napkin-embed.js, which both fetch the same
// file. The fetch starts as this script runs (a served page's <link rel="preload"> starts the
// download sooner still); compileStreaming compiles while the bytes are inflated, and where it
// cannot (an old browser) the inflated bytes are compiled whole. The single file carries the
// part inline instead (vite.config.mjs, singleFileWasm).
// napkinWasmUrl: where the part is. The search's worker imports this script from a blob: URL,
// where "beside" means nothing, so it is told first (web/search-worker.js).
/* exported napkinWasmModule */
var napkinWasmUrl = typeof napkinWasmUrl == 'string' ? napkinWasmUrl
  : new URL('napkin.wasm.deflate', (document.currentScript && document.currentScript.src) || document.baseURI).href;
function napkinWasmModule() {
  if (napkinWasmModule.p) return napkinWasmModule.p;
  return (napkinWasmModule.p = fetch(napkinWasmUrl).then(function (r) {
    if (!r.ok) throw new Error(napkinWasmUrl + ': ' + r.status + ' ' + r.statusText);
    var wasm = new Response(r.body.pipeThrough(new DecompressionStream('deflate-raw')),
      { headers: { 'Content-Type': 'application/wasm' } });
    return WebAssembly.compileStreaming
      ? WebAssembly.compileStreaming(wasm)
      : wasm.arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
  }));
}
napkinWasmModule();
