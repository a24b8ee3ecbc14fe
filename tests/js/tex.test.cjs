// Every formula the core writes converts to MathML with web/tex.js (which replaced Temml to
// keep the single file inside its 300 KB budget): the derivations of every estimator's example
// of every worked-example preset it is offered for, and of every practice problem's solution. A command tex.js does not know would
// show as raw TeX on the page; this test finds it first.
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

test('every formula of every example and preset converts to MathML, with no unknown command', async () => {
  const { parse, TexError } = await import(path.join(ROOT, 'web/tex.js'));
  const api = await require(path.join(ROOT, 'build/wasm/napkin.js'))();
  const reg = api.list();
  let formulas = 0;
  const failures = [];
  for (const e of reg.estimators) {
    const example = Object.fromEntries(e.inputs.map((i) => [i.name, i.example]));
    const runs = [example, ...reg.presets.filter((p) => p.estimators.includes(e.id)).map((p) => ({ ...example, ...p.values }))];
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
            assert.ok(!JSON.stringify(tree).includes('\\\\'), `a backslash survived in ${s[k]}`);
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
            parse(s[k]);
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
