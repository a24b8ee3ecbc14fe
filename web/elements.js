// <napkin-calculator estimator="ID" [input="value" …]> and <napkin-problem problem="ID" seed="N">:
// the page's own card and problem view inside a shadow root, so a host page's styles neither
// leak in nor out. Styles are constructable sheets (no <style> tags: fine under a strict CSP).
import { EstimatorCard } from './form.js';
import { resizeCharts } from './chart.js';
import { ProblemView } from './practice.js';

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

export function defineElements(apiPromise, cssTexts) {
  class NapkinElement extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: 'open' });
      root.adoptedStyleSheets = styleSheets(cssTexts);
      const box = document.createElement('div');
      box.className = 'napkin-embed';
      box.textContent = 'Loading…';
      root.append(box);
      apiPromise.then((api) => {
        box.textContent = '';
        this.mount(api, box);
        this.dispatchEvent(new CustomEvent('napkin-rendered', { bubbles: true }));
      });
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
      const reg = api.list();
      const id = this.getAttribute('estimator') || '';
      const est = reg.estimators.find((e) => e.id === id);
      if (!est) return this.fail(box, `napkin-calculator: unknown estimator "${id}"`);
      const initial = {};
      for (const i of est.inputs) if (this.hasAttribute(i.name)) initial[i.name] = this.getAttribute(i.name);
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
      if (card.charts.length) new ResizeObserver(() => resizeCharts(card.charts)).observe(box);
      this.card = card;
    }
  }

  class NapkinProblem extends NapkinElement {
    mount(api, box) {
      const view = new ProblemView(api, this.getAttribute('problem') || '', Number(this.getAttribute('seed') || 0));
      box.append(view.el);
      this.view = view;
    }
  }

  if (!customElements.get('napkin-calculator')) customElements.define('napkin-calculator', NapkinCalculator);
  if (!customElements.get('napkin-problem')) customElements.define('napkin-problem', NapkinProblem);
}
