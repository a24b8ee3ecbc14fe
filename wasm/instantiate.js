// Instantiate the wasm from a compiled module the caller passed as `wasmModule`, or from its
// bytes: the ones the caller passed as `wasmBinary` (the single
// page file carries them in a compact form, see vite.config.mjs), else the inlined data: URI.
// Emscripten 3.1.6 would first fetch() its own data: URI, which a strict CSP (no connect-src
// data:) reports as a violation. wasmBinaryFile and tryParseAsDataURI are the module's own.
//
// The page and the embed get the module split in two (wasm/split.mjs): a primary module that
// imports one placeholder per function of the deferred module ("placeholder" namespace), and
// the deferred module, which the caller gives as `deferredWasm`: a function returning a promise
// of its compiled WebAssembly.Module. wasm/api.js calls Module['attachDeferred']() before any
// export that needs it; instantiating the deferred module writes its functions into the shared
// table over the placeholders. A placeholder that runs anyway throws, which api.js's guard turns
// into an error value.
Module['needsDeferred'] = false;
Module['attachDeferred'] = function () {
  if (!Module['needsDeferred']) return Promise.resolve();
  if (Module['deferredPromise']) return Module['deferredPromise'];
  var load = Module['deferredWasm'];
  var p = typeof load === 'function' ? Promise.resolve().then(load)
    : Promise.reject(new Error('createNapkin was given no deferredWasm for the split module'));
  p = p.then(function (m) {
    // The primary's exports are the deferred module's imports (memory, table, stack pointer and
    // the functions it calls), under the namespace wasm-split gives them.
    return WebAssembly.instantiate(m, { 'primary': Module['asm'] }).then(function () {
      Module['needsDeferred'] = false;
      Module['deferredModule'] = m;  // handed to the search's worker, which runs the same split
    });
  });
  p.catch(function () { Module['deferredPromise'] = null; });  // a failed load may be retried
  return Module['deferredPromise'] = p;
};
function napkinAddPlaceholders(module, imports) {
  var split = WebAssembly.Module.imports(module).some(function (i) { return i.module === 'placeholder'; });
  Module['needsDeferred'] = split;
  if (split)
    imports['placeholder'] = new Proxy({}, {
      get: function (target, name) {
        return function () { throw new Error('the practice and search code has not loaded yet (placeholder ' + String(name) + ')'); };
      },
    });
}
Module['instantiateWasm'] = function (imports, receiveInstance) {
  // A promise of a compiled WebAssembly.Module (the single page compiles while it inflates).
  if (Module['wasmModule']) {
    Promise.resolve(Module['wasmModule']).then(function (m) {
      napkinAddPlaceholders(m, imports);
      return WebAssembly.instantiate(m, imports).then(function (instance) { receiveInstance(instance, m); });
    }).catch(function (e) { if (Module['onAbort']) Module['onAbort'](e); throw e; });
    return {};
  }
  var bytes = Module['wasmBinary'] || tryParseAsDataURI(wasmBinaryFile);
  WebAssembly.compile(bytes).then(function (m) {
    napkinAddPlaceholders(m, imports);
    return WebAssembly.instantiate(m, imports).then(function (instance) { receiveInstance(instance, m); });
  }).catch(function (e) { if (Module['onAbort']) Module['onAbort'](e); throw e; });
  return {};
};
