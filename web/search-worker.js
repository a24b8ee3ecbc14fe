// The layout search's Web Worker (SPEC §9), built from the page's own copy of the wasm module,
// so no second copy ships and it starts from file:// too: a blob: worker holding the module's
// inline script (the single file) or importing its URL (dist/index.html), then `shim` below.
// The page passes `searchWorker` to createNapkin; the module's search() posts the inputs here.
/* global createNapkin, napkinWasmModule */
function shim() {
  var ready = Promise.resolve(typeof napkinWasmModule === 'function' ? napkinWasmModule() : null).then(function (m) {
    return createNapkin(m ? { wasmModule: m } : {});
  });
  onmessage = function (e) {
    ready.then(function (api) {
      return api.search(JSON.parse(e.data), { onProgress: function (p) { postMessage({ progress: p }); } });
    }).then(function (r) { postMessage({ result: r }); });
  };
}

export function searchWorker(script) {
  if (!script || typeof Worker !== 'function') return undefined;
  const head = script.src ? `importScripts(${JSON.stringify(script.src)});` : script.text;
  let url = null;
  return () => new Worker(url || (url = URL.createObjectURL(new Blob([head, `\n;(${shim})();`], { type: 'text/javascript' }))));
}
