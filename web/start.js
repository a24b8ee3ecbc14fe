// The first screen: what Napkin answers, the common questions as entry points (declared in the
// registry with the card and presets that answer each), and every area with its estimators.
import { h } from './dom.js';
import { AREA_TITLES } from './areas.js';

export function buildStart(api, registry, panel, { open, ask }) {
  const areas = [];
  for (const e of registry.estimators) if (!areas.includes(e.area)) areas.push(e.area);
  panel.append(
    h('div', { class: 'start' },
      h('h2', { text: 'What Napkin answers' }),
      h('p', { class: 'lead', text: 'Back-of-the-envelope math for training and serving large language models — time, cost, memory, communication, inference and serving — with every step of the derivation and the paper or datasheet it comes from. Type values with units (70B, 3.35 TB/s, 80 GB, 40%).' }),
      h('h3', { text: 'Start from a question' }),
      h('ul', { class: 'questions' },
        registry.questions.map((q) => h('li', {},
          h('button', { type: 'button', class: 'question', dataset: { question: q.estimator }, onclick: () => ask(q) },
            h('span', { class: 'q-text', text: q.text }),
            h('span', { class: 'q-card', text: (registry.estimators.find((e) => e.id === q.estimator) || {}).title || '' }))))),
      h('h3', { text: 'Or browse by area' }),
      h('div', { class: 'area-list' },
        areas.map((a) => h('section', { class: 'area' },
          h('h4', { text: AREA_TITLES[a] || a }),
          h('ul', {}, registry.estimators.filter((e) => e.area === a).map((e) =>
            h('li', {}, h('button', { type: 'button', class: 'linkish', onclick: () => open(e.id), text: e.title }))))))),
      h('p', { class: 'hint-line' }, 'Press ', h('kbd', { text: '/' }), ' anywhere to find a calculator by name.')));
}
