// The layout search's Web Worker (docs/training.md, Plan card), built from the page's own copy of the wasm module,
// so no second copy ships and it starts from file:// too: a blob: worker holding the module's
// inline script (the single file) or importing its URL (dist/index.html, which fetches the wasm
// itself), then `shim` below.
// The page passes `searchWorker` to createNapkin; the module's search() posts the inputs here.
/* global createNapkin, napkinWasmModule */
// Each message is {inputs, deferred}: the search's inputs as JSON text, and the module's
// deferred part (wasm/split.mjs), already compiled by the page, which holds the search's code.
function shim() {
  var ready = null;
  onmessage = function (e) {
    var d = e.data;
    if (!ready) ready = Promise.resolve(typeof napkinWasmModule === 'function' ? napkinWasmModule() : null).then(function (m) {
      var o = m ? { wasmModule: m } : {};
      if (d.deferred) o.deferredWasm = function () { return d.deferred; };
      return createNapkin(o);
    });
    ready.then(function (api) {
      return api.search(JSON.parse(d.inputs), { onProgress: function (p) { postMessage({ progress: p }); } });
    }).then(function (r) { postMessage({ result: r }); });
  };
}

export function searchWorker(script) {
  if (!script || typeof Worker !== 'function') return undefined;
  // A served page's script fetches the wasm from beside itself (napkinWasmUrl, vite.config.mjs):
  // a blob: worker has no such place, so it is told first.
  /* global napkinWasmUrl */
  const where = typeof napkinWasmUrl === 'string' ? `var napkinWasmUrl=${JSON.stringify(napkinWasmUrl)};` : '';
  const head = script.src ? `${where}importScripts(${JSON.stringify(script.src)});` : script.text;
  let url = null;
  return () => new Worker(url || (url = URL.createObjectURL(new Blob([head, `\n;(${shim})();`], { type: 'text/javascript' }))));
}
