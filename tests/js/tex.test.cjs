// Every formula the core writes converts to MathML with web/tex.js (which replaced Temml to
// keep the single file inside its 300 KB budget): the derivations of every estimator's example,
// of every worked-example preset it is offered for, of each input moved off its example (a
// price of 0 hides the cost step, so the example alone never reached `\$`: issue #30.3), and of
// every practice problem's solution. A command tex.js does not know would show as raw TeX on
// the page; this test finds it first, and also reads every TeX command written in core/'s
// sources, so a command only some inputs reach cannot hide.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

// Any leaf text of a parsed tree that still holds a backslash: a command shown as typed.
function backslashLeaves(node, out = []) {
  if (typeof node === 'string') {
    if (node.includes('\\')) out.push(node);
  } else if (Array.isArray(node)) for (const k of node.slice(2)) backslashLeaves(k, out);
  return out;
}

// The example, then each input moved off its example: a zero becomes 2 (a price, a count),
// false becomes true, and each other choice is taken. A run the core refuses is skipped.
function variants(e) {
  const example = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
  const out = [example];
  for (const i of e.inputs) {
    if (i.kind === 'number' && i.example === 0) out.push({ ...example, [i.name]: 2 });
    else if (i.kind === 'boolean') out.push({ ...example, [i.name]: !i.example });
    else if (i.kind === 'choice') for (const c of i.choices || []) if (c !== i.example) out.push({ ...example, [i.name]: c });
  }
  return out;
}

test('every formula of every example and preset converts to MathML, with no unknown command', async () => {
  const { parse, TexError } = await import(path.join(ROOT, 'web/tex.js'));
  const api = await require(path.join(ROOT, 'build/wasm/napkin.js'))();
  const reg = api.list();
  let formulas = 0;
  const failures = [];
  for (const e of reg.estimators) {
    const example = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
    const runs = [...variants(e), ...reg.presets.filter((p) => p.estimators.includes(e.id)).map((p) => ({ ...example, ...p.values }))];
    for (const inputs of runs) {
      const r = api.run(e.id, inputs);
      if (r.error) continue;
      for (const s of r.steps)
        for (const k of ['formula', 'substituted', 'result']) {
          if (!s[k]) continue;
          formulas++;
          try {
            const tree = parse(s[k]);
            assert.strictEqual(tree[0], 'math');
            const left = backslashLeaves(tree);
            if (left.length) failures.push(`${e.id}: a backslash survived in ${s[k]}: ${left.join(' ')}`);
          } catch (err) {
            if (!(err instanceof TexError)) throw err;
            failures.push(`${e.id}: ${err.message}`);
          }
        }
    }
  }
  // Practice problems' worked solutions, at two seeds each.
  const list = api.problems();
  for (const item of list.problems || list)
    for (const seed of [1, 2]) {
      const p = api.problem(item.id, seed);
      for (const s of p.solution || [])
        for (const k of ['formula', 'substituted', 'result']) {
          if (!s[k]) continue;
          formulas++;
          try {
            const left = backslashLeaves(parse(s[k]));
            if (left.length) failures.push(`${item.id}: a backslash survived in ${s[k]}: ${left.join(' ')}`);
          } catch (err) {
            if (!(err instanceof TexError)) throw err;
            failures.push(`${item.id}: ${err.message}`);
          }
        }
    }
  assert.deepStrictEqual(failures.slice(0, 10), []);
  assert.ok(formulas > 1000, `only ${formulas} formulas were checked`);
});

test('the shapes of a formula: numbers with group separators, scripts, fractions, fences and text', async () => {
  const { parse, TexError } = await import(path.join(ROOT, 'web/tex.js'));
  assert.deepStrictEqual(parse('{12{,}288}'), ['math', { display: 'inline', displaystyle: 'true' }, ['mn', {}, '12,288']]);
  assert.deepStrictEqual(parse('P_{\\text{attn}} = 6.04\\times10^{8}').slice(2), [
    ['msub', {}, ['mi', {}, 'P'], ['mtext', {}, 'attn']],
    ['mo', {}, '='],
    ['mn', {}, '6.04'],
    ['mo', {}, '×'],
    ['msup', {}, ['mn', {}, '10'], ['mn', {}, '8']],
  ]);
  assert.deepStrictEqual(parse('\\frac{a}{2}').slice(2), [['mfrac', {}, ['mi', {}, 'a'], ['mn', {}, '2']]]);
  assert.deepStrictEqual(parse('\\left\\lceil x \\right\\rceil').slice(2), [
    ['mrow', {}, ['mo', { fence: 'true', stretchy: 'true' }, '⌈'], ['mi', {}, 'x'], ['mo', { fence: 'true', stretchy: 'true' }, '⌉']],
  ]);
  assert.deepStrictEqual(parse('\\sum_{i}^{n} x').slice(2, 3), [['munderover', {}, ['mo', {}, '∑'], ['mi', {}, 'i'], ['mi', {}, 'n']]]);
  for (const bad of ['\\frac{a}', '\\unknown x', '{x', 'x}', '\\left( x', 'x^']) assert.throws(() => parse(bad), TexError, bad);
});

// Every backslash command in a string literal of core/ (JSON's own escapes aside) must be one
// tex.js knows: asked to parse the command alone, it may complain of a missing argument, never
// of an unknown command.
test('every TeX command written in core/ is one tex.js renders', async () => {
  const { parse, TexError } = await import(path.join(ROOT, 'web/tex.js'));
  const files = [];
  const walk = (dir) => {
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      const f = path.join(dir, d.name);
      if (d.isDirectory()) walk(f);
      else if (/\.(cpp|hpp)$/.test(d.name) && d.name !== 'json.cpp') files.push(f);
    }
  };
  walk(path.join(ROOT, 'core'));
  const commands = new Set();
  for (const f of files)
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/"(?:[^"\\\n]|\\.)*"/g))
      for (const c of m[0].matchAll(/\\\\([a-zA-Z]+|[^a-zA-Z\s"])/g)) commands.add(c[1]);
  assert.ok(commands.has('frac') && commands.size > 20, `only ${[...commands]} were found`);
  const unknown = [];
  for (const c of commands) {
    try {
      parse(c === 'right' ? '\\left( x \\right)' : `\\${c}`);  // \right closes a \left
    } catch (err) {
      if (!(err instanceof TexError)) throw err;
      if (err.message.startsWith(`the command \\${c}`)) unknown.push(`\\${c}`);
    }
  }
  assert.deepStrictEqual(unknown, []);
});

test('a dollar sign is a symbol, and an unknown command is reported, never shown', async () => {
  const { parse, TexError } = await import(path.join(ROOT, 'web/tex.js'));
  assert.deepStrictEqual(backslashLeaves(parse('\\$ = {471666} \\cdot {\\$2}')), []);
  assert.deepStrictEqual(parse('\\$').slice(2), [['mi', { mathvariant: 'normal' }, '$']]);
  assert.throws(() => parse('\\euro 2'), TexError);
  assert.deepStrictEqual(backslashLeaves(['math', {}, ['mtext', {}, '\\euro']]), ['\\euro']);
});

test('every Greek letter is a letter', async () => {
  const { parse } = await import(path.join(ROOT, 'web/tex.js'));
  for (const g of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu', 'nu', 'xi', 'pi', 'rho', 'sigma', 'tau', 'upsilon', 'phi', 'chi', 'psi', 'omega', 'Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma', 'Phi', 'Psi', 'Omega'])
    assert.strictEqual(parse(`\\${g}`)[2][0], 'mi', g);
});
