// Entry point: start the wasm module (a classic script loaded before this one), publish the
// JS API as window.napkin, build the page, then announce readiness for tests and host pages.
import './style.css';
import { createApp } from './app.js';
import { builtinProblems } from './problem-bank.js';
import { searchWorker } from './search-worker.js';
import { deferredWasm } from './lazy-data.js';

function fail(message) {
  const box = document.getElementById('app');
  const p = document.createElement('p');
  p.className = 'error-box';
  p.textContent = message;
  box.replaceChildren(p);
}

// Marks for `make bench`'s breakdown of the time to the first result.
performance.mark('napkin-modules-evaluated');

if (typeof createNapkin !== 'function') {
  fail('The calculator module did not load. Rebuild with `make dist`.');
} else {
  // The single file carries the wasm deflated, inflated and compiled natively as the page
  // loads (see vite.config.mjs).
  Promise.resolve(typeof napkinWasmModule === 'function' ? napkinWasmModule() : null)
    .then((module) => {
      performance.mark('napkin-wasm-inflated');
      // The practice and search code is a second, deferred part of the module (wasm/split.mjs),
      // loaded when Practice or the Plan search first needs it.
      const options = module ? { wasmModule: module, deferredWasm: deferredWasm() } : {};
      // The layout search runs in a Web Worker made from the same script (web/search-worker.js).
      options.searchWorker = searchWorker(document.getElementById('napkin-wasm'));
      return createNapkin(options);
    })
    .then((api) => {
      performance.mark('napkin-wasm-started');
      window.napkin = api;
      // Loads the built-in problem bank, as the Practice tab does when it opens (for host pages
      // and tests that use the problem API without opening Practice).
      window.napkinLoadProblems = () => builtinProblems(api);
      // Practice loads on first use: its code and the problem bank are not the first screen's.
      const practice = { id: 'practice', title: 'Practice', build: (panel, state, save) => {
        const view = {};
        const note = document.createElement('p');
        note.className = 'loading';
        note.textContent = 'Loading the practice problems…';
        panel.append(note);
        Promise.all([import('./practice.js'), builtinProblems(api)]).then(([m, bank]) => {
          note.remove();
          if (bank.errors.length && !bank.loaded) {
            note.className = 'error-box';
            note.textContent = 'The practice problems could not be loaded: ' + bank.errors[0];
            panel.append(note);
            return;
          }
          Object.assign(view, m.buildPractice(api, panel, state, save));
        });
        return view;
      } };
      createApp(api, document.getElementById('app'), [practice]);
      document.dispatchEvent(new CustomEvent('napkin-ready', { detail: api }));
    })
    .catch((e) => fail('WebAssembly could not start: ' + (e && e.message ? e.message : e)));
}
