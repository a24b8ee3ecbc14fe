// Instantiate the wasm from a compiled module the caller passed as `wasmModule`, or from its
// bytes: the ones the caller passed as `wasmBinary` (the single
// page file carries them in a compact form, see vite.config.mjs), else the inlined data: URI.
// Emscripten 3.1.6 would first fetch() its own data: URI, which a strict CSP (no connect-src
// data:) reports as a violation. wasmBinaryFile and tryParseAsDataURI are the module's own.
Module['instantiateWasm'] = function (imports, receiveInstance) {
  // A promise of a compiled WebAssembly.Module (the single page compiles while it inflates).
  if (Module['wasmModule']) {
    Promise.resolve(Module['wasmModule']).then(function (m) {
      return WebAssembly.instantiate(m, imports).then(function (instance) { receiveInstance(instance, m); });
    }).catch(function (e) { if (Module['onAbort']) Module['onAbort'](e); throw e; });
    return {};
  }
  var bytes = Module['wasmBinary'] || tryParseAsDataURI(wasmBinaryFile);
  WebAssembly.instantiate(bytes, imports).then(
    function (output) { receiveInstance(output['instance'], output['module']); },
    function (e) { if (Module['onAbort']) Module['onAbort'](e); throw e; });
  return {};
};
