// The embed script: one file (the wasm module is prepended at build time) that a study site
// includes to get <napkin-calculator> and <napkin-problem>. It also publishes window.napkin and
// fires napkin-ready on document, like the page.
import pageCss from './style.css?inline';
import { defineElements } from './elements.js';

// The problem bank sits beside this script (napkin-problems.json) and loads when a
// <napkin-problem> first needs it.
const script = document.currentScript;
const problemsUrl = new URL('napkin-problems.json', script && script.src ? script.src : document.baseURI).href;

const api = createNapkin().then((m) => {
  window.napkin = m;
  document.dispatchEvent(new CustomEvent('napkin-ready', { detail: m }));
  return m;
});
defineElements(api, [pageCss], { problemsUrl });
