// The page: one tab per area of the registry, each a column of estimator cards. State lives
// in the URL hash (permalink); cards are built when their tab is first shown.
import { h } from './dom.js';
import { readState, writeState } from './state.js';
import { EstimatorCard } from './form.js';

export const AREA_TITLES = {
  training: 'Training & models',
  memory: 'Memory & parallelism',
  comm: 'Communication & hardware',
  inference: 'Inference, serving & RL',
};

export function createApp(api, root, extraTabs = []) {
  const registry = api.list();
  const state = readState(location.hash);
  const areas = [];
  for (const e of registry.estimators) if (!areas.includes(e.area)) areas.push(e.area);
  const tabs = [
    ...areas.map((a) => ({ id: a, title: AREA_TITLES[a] || a, build: (panel) => buildArea(a, panel) })),
    ...extraTabs,
  ];
  if (!tabs.some((t) => t.id === state.tab)) state.tab = tabs[0].id;

  const binaryBox = document.getElementById('binary');
  const fmt = (v, unit, digits) => api.format(v, unit, { binary: state.binary, digits });
  const cards = [];
  const panels = {};
  const nav = document.getElementById('tabs');
  root.replaceChildren();

  let hashTimer = null;
  const saveState = () => {
    clearTimeout(hashTimer);
    hashTimer = setTimeout(() => history.replaceState(null, '', writeState(state)), 150);
  };

  function buildArea(area, panel) {
    for (const est of registry.estimators.filter((e) => e.area === area)) {
      const card = new EstimatorCard(
        {
          api, fmt,
          presets: registry.presets,
          charts: registry.charts.filter((c) => c.estimator === est.id),
          initial: state.values[est.id],
          onChange: (id, diff) => {
            if (Object.keys(diff).length) state.values[id] = diff;
            else delete state.values[id];
            saveState();
          },
        },
        est,
      );
      panel.append(card.el);
      cards.push(card);
      card.recompute();
    }
  }

  function show(id) {
    state.tab = id;
    for (const t of tabs) {
      const active = t.id === id;
      t.button.setAttribute('aria-selected', String(active));
      t.button.tabIndex = active ? 0 : -1;
      if (active && !panels[t.id]) {
        panels[t.id] = h('section', { class: 'panel', id: `panel-${t.id}`, role: 'tabpanel', 'aria-label': t.title });
        root.append(panels[t.id]);
        t.build(panels[t.id], state, saveState);
      }
      if (panels[t.id]) panels[t.id].hidden = !active;
    }
    for (const c of cards) if (!c.el.closest('[hidden]')) c.charts.forEach((ch) => ch.resize());
    saveState();
  }

  nav.replaceChildren();
  for (const t of tabs) {
    t.button = h('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, dataset: { tab: t.id }, text: t.title, onclick: () => show(t.id) });
    nav.append(t.button);
  }
  nav.addEventListener('keydown', (e) => {
    const i = tabs.findIndex((t) => t.id === state.tab);
    const next = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : null;
    if (next === null) return;
    const t = tabs[(next + tabs.length) % tabs.length];
    show(t.id);
    t.button.focus();
  });

  binaryBox.checked = state.binary;
  binaryBox.addEventListener('change', () => {
    state.binary = binaryBox.checked;
    for (const c of cards) c.recompute();
    saveState();
  });

  const status = document.getElementById('permalink-status');
  document.getElementById('permalink').addEventListener('click', async () => {
    history.replaceState(null, '', writeState(state));
    try {
      await navigator.clipboard.writeText(location.href);
      status.textContent = 'Link copied';
    } catch {
      status.textContent = 'Link is in the address bar';
    }
    setTimeout(() => (status.textContent = ''), 2500);
  });

  addEventListener('resize', () => cards.forEach((c) => c.charts.forEach((ch) => ch.resize())));
  show(state.tab);
  performance.mark('napkin-first-result');
  return { state, cards, show };
}
