// embed.html#problem=ID&seed=N or embed.html#estimator=ID[&input=value…][&origin=https://host]:
// one element for an iframe, which reports its height to the parent page so the iframe can
// size itself. With origin=…, height messages go only to that origin.
import pageCss from './style.css?inline';
import uplotCss from 'uplot/dist/uPlot.min.css?inline';
import temmlCss from 'temml/dist/Temml-Local.css?inline';
import { defineElements } from './elements.js';

const params = new URLSearchParams(location.hash.replace(/^#/, ''));
const api = createNapkin().then((m) => {
  window.napkin = m;
  document.dispatchEvent(new CustomEvent('napkin-ready', { detail: m }));
  return m;
});
defineElements(api, [pageCss, uplotCss, temmlCss]);

let el;
if (params.has('problem')) {
  el = document.createElement('napkin-problem');
  el.setAttribute('problem', params.get('problem'));
  el.setAttribute('seed', params.get('seed') || '0');
} else {
  el = document.createElement('napkin-calculator');
  for (const [k, v] of params) {
    if (k === 'origin') continue;
    try {
      el.setAttribute(k, v);  // a value, never markup; a name that is not an attribute name is skipped
    } catch {}
  }
  if (!params.has('estimator')) el.setAttribute('estimator', 'train.time');
}
document.getElementById('embed').replaceChildren(el);

// Only a parent we were asked to talk to (or any, when no origin was given) hears our height;
// the height is not secret, the target origin keeps it from going elsewhere when it is set.
const target = params.get('origin') || '*';
if (window.parent !== window) {
  const report = () => window.parent.postMessage({ type: 'napkin-height', height: document.documentElement.scrollHeight }, target);
  new ResizeObserver(report).observe(document.body);
  report();
}
