// Page state in the URL hash, so a permalink restores exactly what was on screen:
// #tab=memory&gib=1&v.train.time.params=70B&p.train.time=llama2-70b&d=train.time … Only what
// differs from the defaults is written. Values are kept as the user typed them; the core
// parses them.
//
// Every map is built with Object.create(null) and keys are checked against the registry
// (`known`), so a hash such as `#v.__proto__.x=1` can neither reach Object.prototype nor
// invent an estimator or an input (issue #10.6).

const dict = () => Object.create(null);

// known: { estimators: { id: Set(input names) }, presets: Set(ids), shared: { name: Set(ids) or null } }
// — omit to skip checks.
export function readState(hash, known) {
  const state = { tab: null, binary: false, values: dict(), presets: dict(), open: dict(), shared: dict(), problem: null, seed: null };
  let params;
  try {
    // A permalink is a few hundred characters; a 2 MB one is hostile and read only in part.
    params = new URLSearchParams(String(hash || '').slice(0, 65536).replace(/^#/, ''));
  } catch {
    return state;
  }
  const inputOk = (id, name) => !known || (Object.hasOwn(known.estimators, id) && known.estimators[id].has(name));
  const estOk = (id) => !known || Object.hasOwn(known.estimators, id);
  for (const [k, v] of params) {
    if (k === 'tab') state.tab = v;
    else if (k === 'gib') state.binary = v === '1';
    else if (k === 'problem') state.problem = v;
    else if (k === 'seed') state.seed = v;
    else if (k === 'd') {
      for (const id of v.split(',')) if (id && estOk(id)) state.open[id] = true;
    } else if (k.startsWith('s.')) {
      // The scenario bar: s.model=llama3-70b (a preset of that kind), s.tp=8 (a layout degree).
      const name = k.slice(2);
      if (known && !Object.hasOwn(known.shared, name)) continue;
      if (known && known.shared[name] !== null && !known.shared[name].has(v)) continue;
      if (v.length <= 64) state.shared[name] = v;
    } else if (k.startsWith('p.')) {
      const id = k.slice(2);
      const ids = v.split(',').filter((x) => !known || known.presets.has(x));
      if (estOk(id) && ids.length) state.presets[id] = ids.join(',');
    } else if (k.startsWith('v.')) {
      const rest = k.slice(2);
      const dot = rest.lastIndexOf('.');
      if (dot <= 0) continue;
      const id = rest.slice(0, dot);
      const name = rest.slice(dot + 1);
      if (!inputOk(id, name)) continue;
      if (!Object.hasOwn(state.values, id)) state.values[id] = dict();
      state.values[id][name] = v;
    }
  }
  return state;
}

export function writeState(state) {
  const params = new URLSearchParams();
  if (state.tab) params.set('tab', state.tab);
  if (state.binary) params.set('gib', '1');
  if (state.problem) params.set('problem', state.problem);
  if (state.seed !== undefined && state.seed !== null) params.set('seed', String(state.seed));
  for (const [name, v] of Object.entries(state.shared || {})) params.set(`s.${name}`, v);
  for (const [id, preset] of Object.entries(state.presets || {})) params.set(`p.${id}`, preset);
  const open = Object.keys(state.open || {});
  if (open.length) params.set('d', open.join(','));
  for (const [id, values] of Object.entries(state.values))
    for (const [name, v] of Object.entries(values)) params.set(`v.${id}.${name}`, v);
  return '#' + params.toString();
}

// What readState checks names against, from the registry's list().
export function knownNames(registry) {
  const estimators = dict();
  for (const e of registry.estimators) estimators[e.id] = new Set(e.inputs.map((i) => i.name));
  // The scenario's names: a preset kind → the ids of that kind; a layout degree → null (any text).
  const shared = dict();
  const scenario = registry.scenario || { kinds: [], layout: [] };
  for (const k of scenario.kinds) shared[k.kind] = new Set(registry.presets.filter((p) => p.kind === k.kind && !p.estimators.length).map((p) => p.id));
  for (const i of scenario.layout) shared[i.name] = null;
  return { estimators, presets: new Set(registry.presets.map((p) => p.id)), shared };
}
