// The page: a first screen with the common questions, one tab per area of the registry (each a
// column of estimator cards), and extra tabs (Practice). State lives in the URL hash
// (permalink); cards are built when their tab is first shown. Tabs follow the WAI-ARIA tabs
// pattern: one panel visible, arrows / Home / End move and activate, aria-controls.
import { h } from './dom.js';
import { readState, writeState, knownNames } from './state.js';
import { EstimatorCard, resizeCharts } from './form.js';
import { buildStart } from './start.js';
import { ScenarioBar } from './scenario-bar.js';
import { lazyText } from './lazy-data.js';

import { AREA_TITLES } from './areas.js';

export function createApp(api, root, extraTabs = []) {
  const registry = api.list();
  performance.mark('napkin-registry-listed');
  const known = knownNames(registry);
  const state = readState(location.hash, known);
  const areas = [];
  for (const e of registry.estimators) if (!areas.includes(e.area)) areas.push(e.area);
  const cardsById = Object.create(null);
  let plan = null;
  let planReady = null;  // the Plan card's code loading (a promise), once it is asked for
  const tabs = [
    { id: 'start', title: 'Start', build: (panel) => buildStart(api, registry, panel, { open: openEstimator, ask }) },
    ...areas.map((a) => ({ id: a, title: AREA_TITLES[a] || a, build: (panel) => buildArea(a, panel) })),
    ...extraTabs,
  ];
  if (!tabs.some((t) => t.id === state.tab)) state.tab = tabs[0].id;

  const binaryBox = document.getElementById('binary');
  const fmt = (v, unit, digits) => api.format(v, unit, { binary: state.binary, digits });
  const cards = [];
  const panels = {};
  const nav = document.getElementById('tabs');
  const announcer = document.getElementById('announce');
  root.replaceChildren();

  // One polite live region for the whole page: it speaks an error once, not every keystroke.
  let announceTimer = null;
  let lastAnnounced = '';
  const announce = (text) => {
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      if (text === lastAnnounced) return;
      lastAnnounced = text;
      announcer.textContent = text;
    }, 700);
  };

  let hashTimer = null;
  let written = location.hash;
  const saveState = (push = false) => {
    clearTimeout(hashTimer);
    const write = () => {
      const hash = writeState(state);
      if (hash === written) return;
      written = hash;
      if (push) history.pushState(null, '', hash);
      else history.replaceState(null, '', hash);
    };
    if (push) write();
    else hashTimer = setTimeout(write, 150);
  };

  // The scenario bar sits at the top of whichever area tab is shown; every card follows it.
  const bar = new ScenarioBar(api, registry, state.shared, (shared) => {
    state.shared = shared;
    sharedNow = bar.values(shared);
    saveState();
    followShared();
  });
  let sharedNow = bar.values(state.shared);
  // Cards on the visible tab recompute at once (one frame); the others when their tab opens.
  const followShared = () => {
    const t0 = performance.now();
    for (const c of cards) {
      c.follow(sharedNow);
      if (c.el.closest('[hidden]')) c.dirty = true;
      else c.recompute();
    }
    if (plan) plan.follow(sharedNow);
    performance.measure('napkin-scenario', { start: t0 });
  };

  // A tab builds its first card at once (at 1280 × 800 it fills the screen below the scenario
  // bar) and the rest just after the first paint, so that its
  // first results show sooner (docs/architecture.md, Budgets); whatever needs a card that
  // is not built yet (opening it, a permalink) builds the rest first (flushCards).
  const FIRST_CARDS = 1;
  const pending = [];
  let pendingFrame = 0;
  function flushCards() {
    cancelAnimationFrame(pendingFrame);
    pendingFrame = 0;
    if (!pending.length) return;
    while (pending.length) pending.shift()();
    resizeCharts(visibleCharts());
  }

  function buildCard(est, panel) {
    const card = new EstimatorCard(
      {
        api, fmt, announce, shared: sharedNow,
        presets: registry.presets,
        charts: registry.charts.filter((c) => c.estimator === est.id),
        initial: state.values[est.id],
        preset: state.presets[est.id],
        open: state.open[est.id],
        docs: () => lazyText('docs', './docs.json').then((t) => JSON.parse(t)[est.id]),
        onChange: (id, diff) => {
          if (Object.keys(diff).length) state.values[id] = diff;
          else delete state.values[id];
          saveState();
        },
        onState: (id, s) => {
          if (s.preset) state.presets[id] = s.preset;
          else delete state.presets[id];
          if (s.open) state.open[id] = true;
          else delete state.open[id];
          saveState();
        },
      },
      est,
    );
    panel.append(card.el);
    cards.push(card);
    cardsById[est.id] = card;
    card.recompute();
  }

  function buildArea(area, panel) {
    const ests = registry.estimators.filter((e) => e.area === area);
    ests.forEach((est, i) => {
      if (i < FIRST_CARDS) buildCard(est, panel);
      else pending.push(() => buildCard(est, panel));
    });
    // The layout search's card sits with the estimator it ranks layouts by (docs/training.md, Plan card).
    const search = registry.search;
    const ranker = search && registry.estimators.find((e) => e.id === search.estimator);
    // Its code loads after the first results (it is not the first screen's: docs/architecture.md, Budgets).
    if (search && (ranker ? ranker.area : areas[0]) === area)
      pending.push(() => (planReady = import('./plan.js').then(({ PlanCard }) => {
        plan = new PlanCard({ api, fmt, registry, shared: sharedNow, open: openFromPlan, opened: () => saveState(true) }, search);
        panel.append(plan.el);
        resizeCharts(visibleCharts());
      })));
    if (pending.length && !pendingFrame)
      pendingFrame = requestAnimationFrame(() => setTimeout(flushCards, 0));
  }

  // The Plan card's Pareto chart resizes with the estimator cards' charts.
  const visibleCharts = () =>
    [...cards, ...(plan ? [plan] : [])].filter((c) => !c.el.closest('[hidden]')).flatMap((c) => c.charts);

  function show(id, { push = false, focus = false } = {}) {
    state.tab = id;
    for (const t of tabs) {
      const active = t.id === id;
      t.button.setAttribute('aria-selected', String(active));
      t.button.tabIndex = active ? 0 : -1;
      if (active && !t.built) {
        t.built = true;
        t.view = t.build(panels[t.id], state, saveState);
      }
      panels[t.id].hidden = !active;
    }
    // The bar goes to the top of an area's panel (first in its tab order), and is hidden
    // where no card follows it (the first screen, practice).
    const panel = panels[id];
    if (areas.includes(id)) {
      const title = panel.querySelector('.panel-title');
      if (bar.el.parentNode !== panel) panel.insertBefore(bar.el, title ? title.nextSibling : panel.firstChild);
      bar.el.hidden = false;
    } else bar.el.hidden = true;
    for (const c of cards)
      if (c.dirty && !c.el.closest('[hidden]')) {
        c.dirty = false;
        c.recompute();
      }
    resizeCharts(visibleCharts());
    if (focus) tabs.find((t) => t.id === id).button.focus();
    saveState(push);
  }

  // From the first screen or the finder: the card's tab, the card in view, its heading focused.
  function openEstimator(id, presetIds = []) {
    const est = registry.estimators.find((e) => e.id === id);
    if (!est) return null;
    show(est.area, { push: true });
    flushCards();
    const card = cardsById[id];
    for (const pid of presetIds) {
      const p = registry.presets.find((x) => x.id === pid);
      if (p) card.applyPreset(p);
    }
    const head = card.el.querySelector('h3');
    head.focus({ preventScroll: true });
    card.el.scrollIntoView({ block: 'start' });
    return card;
  }
  const ask = (q) => openEstimator(q.estimator, q.presets);

  // Opening a layout from the Plan card's results is a step Back undoes: the entry left
  // behind is marked, and Back scrolls to the results again (the Plan card calls opened()
  // once the layout is in, which pushes the new entry).
  function openFromPlan(id) {
    clearTimeout(hashTimer);
    written = writeState(state);
    history.replaceState({ napkin: 'plan' }, '', written);
    return openEstimator(id);
  }
  addEventListener('popstate', (e) => {
    if (e.state && e.state.napkin === 'plan' && plan) requestAnimationFrame(() => plan.backHere());
  });

  nav.replaceChildren();
  for (const t of tabs) {
    t.button = h('button', {
      type: 'button', role: 'tab', id: `tab-${t.id}`, 'aria-controls': `panel-${t.id}`,
      dataset: { tab: t.id }, text: t.title, onclick: () => show(t.id, { push: true }),
    });
    nav.append(t.button);
    panels[t.id] = h('section', { class: 'panel', id: `panel-${t.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${t.id}`, tabindex: '-1', hidden: true },
      t.id === 'start' ? null : h('h2', { class: areas.includes(t.id) ? 'panel-title' : 'panel-title visually-hidden', text: t.title }));
    root.append(panels[t.id]);
  }
  nav.addEventListener('keydown', (e) => {
    const i = tabs.findIndex((t) => t.id === state.tab);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    show(tabs[(next + tabs.length) % tabs.length].id, { push: true, focus: true });
  });

  binaryBox.checked = state.binary;
  binaryBox.addEventListener('change', () => {
    state.binary = binaryBox.checked;
    for (const c of cards) c.recompute();
    saveState();
  });

  const status = document.getElementById('permalink-status');
  document.getElementById('permalink').addEventListener('click', async () => {
    written = writeState(state);
    history.replaceState(null, '', written);
    try {
      await navigator.clipboard.writeText(location.href);
      status.textContent = 'Link copied';
    } catch {
      status.textContent = 'Link is in the address bar';
    }
    setTimeout(() => (status.textContent = ''), 2500);
  });

  // A link pasted into an open tab, Back and Forward: the page follows the hash.
  const follow = () => {
    if (location.hash === written) return;
    written = location.hash;
    const next = readState(location.hash, known);
    state.binary = next.binary;
    binaryBox.checked = next.binary;
    state.values = next.values;
    state.presets = next.presets;
    state.open = next.open;
    state.shared = next.shared;
    state.problem = next.problem;
    state.seed = next.seed;
    bar.set(next.shared, false);
    sharedNow = bar.values(next.shared);
    for (const c of cards) c.takeShared(sharedNow);
    if (plan) plan.follow(sharedNow);
    flushCards();
    for (const c of cards) c.restore(next.values[c.est.id], next.presets[c.est.id], next.open[c.est.id]);
    // A tab built before the link came (Practice) opens what the link names.
    for (const t of tabs) if (t.view && t.view.follow) t.view.follow();
    show(tabs.some((t) => t.id === next.tab) ? next.tab : tabs[0].id);
  };
  addEventListener('hashchange', follow);
  addEventListener('popstate', follow);

  // Focus never hides under the sticky header (WCAG 2.4.11): scrolling leaves room for it.
  const header = document.querySelector('.top');
  const pad = () => {
    const sticky = getComputedStyle(header).position === 'sticky';
    document.documentElement.style.scrollPaddingTop = sticky ? header.offsetHeight + 8 + 'px' : '';
  };
  new ResizeObserver(pad).observe(header);

  // The Plan card sits on its ranking estimator's tab (or the first area's, see buildArea).
  function openPlan() {
    const ranker = registry.estimators.find((e) => e.id === registry.search.estimator);
    show(ranker ? ranker.area : areas[0], { push: true });
    flushCards();
    Promise.resolve(planReady).then(() => {
      if (!plan) return;
      plan.el.querySelector('h3').focus({ preventScroll: true });
      plan.el.scrollIntoView({ block: 'start' });
    });
  }
  addEventListener('resize', () => resizeCharts(visibleCharts()));
  performance.mark('napkin-page-built');
  show(state.tab);
  performance.mark('napkin-first-result');
  // The finder's code is not the first screen's: it is asked for once the first results show
  // (docs/architecture.md, Budgets), so its fetch does not compete with the first tab's.
  import('./finder.js').then(({ Finder }) =>
    new Finder(registry, document.getElementById('finder'), (e) => (e.plan ? openPlan() : openEstimator(e.id))));
  return { state, cards, show, openEstimator };
}
