// Instantiate the wasm from its bytes: the ones the caller passed as `wasmBinary` (the single
// page file carries them in a compact form, see vite.config.mjs), else the inlined data: URI.
// Emscripten 3.1.6 would first fetch() its own data: URI, which a strict CSP (no connect-src
// data:) reports as a violation. wasmBinaryFile and tryParseAsDataURI are the module's own.
Module['instantiateWasm'] = function (imports, receiveInstance) {
  var bytes = Module['wasmBinary'] || tryParseAsDataURI(wasmBinaryFile);
  WebAssembly.instantiate(bytes, imports).then(
    function (output) { receiveInstance(output['instance'], output['module']); },
    function (e) { if (Module['onAbort']) Module['onAbort'](e); throw e; });
  return {};
};
