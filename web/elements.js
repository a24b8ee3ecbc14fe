// <napkin-calculator estimator="ID" [in-INPUT="value" | INPUT="value" …]> and
// <napkin-problem problem="ID" seed="N">: the page's own card and problem view inside a shadow
// root, so a host page's styles neither leak in nor out. Styles are constructable sheets (no
// <style> tags: fine under a strict CSP).
//
// An input is always read from in-NAME="…". The bare NAME="…" is read too, except for names
// that are also global HTML attributes (hidden, id, class, style, title, lang, dir, slot, …) or
// this element's own (estimator, charts, units): comm.tp_step's `hidden` input as hidden="4096"
// would hide the whole element, so it must be given as in-hidden="4096" (issue #30.16).
//
// The shadow root ends in a <slot>: a host page that pastes the element without its closing
// tag makes the rest of its page the element's children, which a shadow root without a slot
// never shows (issue #30.11). With the slot they show after the calculator.
import { EstimatorCard, resizeCharts } from './form.js';
import { ProblemView } from './practice.js';
import { builtinProblem, courseProblems } from './problem-bank.js';

// Global HTML attributes (and this element's own): never read as a bare input name.
const RESERVED = new Set([
  'accesskey', 'autocapitalize', 'autocorrect', 'autofocus', 'class', 'contenteditable', 'dir', 'draggable',
  'enterkeyhint', 'exportparts', 'hidden', 'id', 'inert', 'inputmode', 'is', 'itemid', 'itemprop', 'itemref',
  'itemscope', 'itemtype', 'lang', 'nonce', 'part', 'popover', 'role', 'slot', 'spellcheck', 'style', 'tabindex',
  'title', 'translate', 'writingsuggestions', 'estimator', 'charts', 'units',
]);
const reserved = (name) => RESERVED.has(name) || /^(on|aria-|data-)/.test(name);

// The starting value of each input the element's attributes give: in-NAME, else a bare NAME
// that is not reserved. A reserved bare name keeps its HTML meaning and is pointed out.
export function inputsFromAttributes(el, inputs) {
  const initial = {};
  for (const i of inputs) {
    if (el.hasAttribute(`in-${i.name}`)) initial[i.name] = el.getAttribute(`in-${i.name}`);
    else if (!reserved(i.name) && el.hasAttribute(i.name)) initial[i.name] = el.getAttribute(i.name);
    else if (el.hasAttribute(i.name))
      console.warn(`napkin-calculator: "${i.name}" is also an HTML attribute, so it is not read as the input; write in-${i.name}="…"`);
  }
  return initial;
}

let sheets = null;
function styleSheets(cssTexts) {
  if (!sheets)
    sheets = cssTexts.map((text) => {
      const s = new CSSStyleSheet();
      s.replaceSync(text.replace(/:root\b/g, ':host'));
      return s;
    });
  return sheets;
}

// `problemsUrl`: where the built-in problem bank is fetched from (the embed script's sibling).
export function defineElements(apiPromise, cssTexts, { problemsUrl } = {}) {
  class NapkinElement extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = styleSheets(cssTexts);
      const box = document.createElement('div');
      box.className = 'napkin-embed';
      box.textContent = 'Loading…';
      root.append(box, document.createElement('slot'));
      apiPromise
        .then((api) => this.mount(api, box))
        .catch((e) => this.fail(box, e && e.message ? e.message : String(e)))
        .then(() => this.dispatchEvent(new CustomEvent('napkin-rendered', { bubbles: true })));
    }
    fail(box, message) {
      const p = document.createElement('p');
      p.className = 'error-box';
      p.textContent = message;
      box.replaceChildren(p);
    }
  }

  class NapkinCalculator extends NapkinElement {
    mount(api, box) {
      box.textContent = '';
      const reg = api.list();
      const id = this.getAttribute('estimator') || '';
      const est = reg.estimators.find((e) => e.id === id);
      if (!est) return this.fail(box, `napkin-calculator: unknown estimator "${id}"`);
      const initial = inputsFromAttributes(this, est.inputs);
      const binary = this.getAttribute('units') === 'binary';
      const card = new EstimatorCard({
        api,
        fmt: (v, unit, digits) => api.format(v, unit, { binary, digits }),
        presets: reg.presets,
        charts: this.getAttribute('charts') === 'none' ? [] : reg.charts.filter((c) => c.estimator === id),
        initial,
        onChange: () => {},
      }, est);
      box.append(card.el);
      card.recompute();
      // The charts follow the embedding page's column, read once per layout.
      if (card.chartBox) new ResizeObserver(() => resizeCharts(card.charts)).observe(box);
      this.card = card;
    }
  }

  // The problem comes from the built-in bank, from a course's file (src="week3.json"), or from
  // JSON inside the element (<script type="application/json">…</script>): docs/authoring.md.
  class NapkinProblem extends NapkinElement {
    mount(api, box) {
      // A parser-made element is connected at its start tag; its JSON child may come later (the
      // parser can pause inside the element, and the API may have resolved by then).
      if (document.readyState === 'loading')
        return new Promise((r) => document.addEventListener('DOMContentLoaded', r, { once: true }))
          .then(() => this.mount(api, box));
      const inline = this.querySelector('script[type="application/json"]');
      const src = this.getAttribute('src');
      const load = src || inline
        ? courseProblems(api, src ? { src } : { text: inline.textContent })
        : builtinProblem(api, this.getAttribute('problem') || '', problemsUrl);
      return load.then((file) => {
        const id = this.getAttribute('problem') || (file.ids && file.ids.length === 1 ? file.ids[0] : '');
        box.textContent = '';
        if (api.problem(id, 0).error) {
          const why = file.errors.length ? ': ' + file.errors.slice(0, 3).join('; ') : '';
          return this.fail(box, `napkin-problem: no problem "${id}"${src ? ' in ' + src : ''}${why}`);
        }
        const view = new ProblemView(api, id, Number(this.getAttribute('seed') || 0));
        box.append(view.el);
        this.view = view;
      });
    }
  }

  if (!customElements.get('napkin-calculator')) customElements.define('napkin-calculator', NapkinCalculator);
  if (!customElements.get('napkin-problem')) customElements.define('napkin-problem', NapkinProblem);
}
