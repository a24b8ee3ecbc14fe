// Page state in the URL hash, so a permalink restores exactly what was on screen:
// #tab=memory&gib=1&v.train.time.params=70B&p=train.time.chinchilla … Only what differs from the
// defaults is written. Values are kept as the user typed them; the core parses them.
export function readState(hash) {
  const state = { tab: null, binary: false, values: {}, problem: null };
  let params;
  try {
    params = new URLSearchParams(String(hash || '').replace(/^#/, ''));
  } catch {
    return state;
  }
  for (const [k, v] of params) {
    if (k === 'tab') state.tab = v;
    else if (k === 'gib') state.binary = v === '1';
    else if (k === 'problem') state.problem = v;
    else if (k === 'seed') state.seed = v;
    else if (k.startsWith('v.')) {
      const rest = k.slice(2);
      const dot = rest.lastIndexOf('.');
      if (dot <= 0) continue;
      const id = rest.slice(0, dot);
      (state.values[id] ||= {})[rest.slice(dot + 1)] = v;
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
  for (const [id, values] of Object.entries(state.values))
    for (const [name, v] of Object.entries(values)) params.set(`v.${id}.${name}`, v);
  return '#' + params.toString();
}
