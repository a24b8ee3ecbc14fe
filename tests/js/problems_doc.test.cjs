// docs/problems.md's "The bank" section is generated from the bank itself (issue #14.10: it
// listed one area). Regenerate with `UPDATE_DOCS=1 node --test tests/js/problems_doc.test.cjs`.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { napkin } = require('./napkin.cjs');

const DOC = path.join(__dirname, '..', '..', 'docs', 'problems.md');
const MARK = '## The bank\n';
const AREAS = { training: 'Training', memory: 'Memory and parallelism', comm: 'Communication and hardware', inference: 'Inference and serving' };

function bankSection(api) {
  const bank = api.problems().problems;
  let out = MARK + '\nGenerated from the bank (`napkin problems`); a test checks it matches.\n';
  const areas = [...new Set(bank.map((p) => p.area))];
  for (const area of areas) {
    const ps = bank.filter((p) => p.area === area);
    out += `\n### ${AREAS[area] || area} (${ps.length} problems)\n\n| id | title | seed 0 answer | source | mistakes |\n|---|---|---|---|---|\n`;
    for (const p of ps) {
      const ans = api.problem(p.id, 0).answer.text;
      const cell = (s) => String(s).replace(/\|/g, '\\|');
      out += `| \`${p.id}\` | ${cell(p.title)} | ${cell(ans)} | ${cell(p.source)} | ${p.mistakes.map((m) => `\`${m}\``).join(', ')} |\n`;
    }
  }
  return out;
}

test('docs/problems.md lists every problem of every area, as the bank has them', async () => {
  const api = await napkin();
  const doc = fs.readFileSync(DOC, 'utf8');
  const at = doc.indexOf(MARK);
  assert.ok(at >= 0, 'docs/problems.md has a "## The bank" section');
  const want = bankSection(api);
  if (process.env.UPDATE_DOCS) fs.writeFileSync(DOC, doc.slice(0, at) + want);
  else assert.equal(doc.slice(at), want, 'regenerate: UPDATE_DOCS=1 node --test tests/js/problems_doc.test.cjs');
});
