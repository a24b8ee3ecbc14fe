// Instantiate the inlined wasm from its bytes. Emscripten 3.1.6 would first fetch() its own
// data: URI, which a strict CSP (no connect-src data:) reports as a violation before falling
// back. wasmBinaryFile and tryParseAsDataURI are the module's own, defined by call time.
Module['instantiateWasm'] = function (imports, receiveInstance) {
  WebAssembly.instantiate(tryParseAsDataURI(wasmBinaryFile), imports).then(
    function (output) { receiveInstance(output['instance'], output['module']); },
    function (e) { if (Module['onAbort']) Module['onAbort'](e); throw e; });
  return {};
};
