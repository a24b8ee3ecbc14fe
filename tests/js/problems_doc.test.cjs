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
  // The counts issue #14 asks for: problems, parts, kinds, mistakes, tags, coverage.
  const answers = new Map(bank.map((p) => [p.id, api.problem(p.id, 0).answer]));
  const groups = new Map();
  for (const p of bank) if (p.group) groups.set(p.group, (groups.get(p.group) || 0) + 1);
  const inParts = bank.filter((p) => p.group && groups.get(p.group) > 1);
  const yesNo = bank.filter((p) => answers.get(p.id).unit === 'bool');
  const choice = bank.filter((p) => p.kind === 'choice');
  const order = bank.filter((p) => p.kind === 'order');
  const partOrConcept = bank.filter((p) => (p.group && groups.get(p.group) > 1) || answers.get(p.id).unit === 'bool' || p.kind);
  const tags = new Map();
  for (const p of bank) for (const t of p.tags) tags.set(t, (tags.get(t) || 0) + 1);
  const levels = [1, 2, 3].map((d) => bank.filter((p) => p.difficulty === d).length);
  const perEstimator = new Map();
  for (const p of bank) perEstimator.set(p.estimator, (perEstimator.get(p.estimator) || 0) + 1);
  out += `\n### Counts\n\n- ${bank.length} problems; ${inParts.length} of them are parts of ${[...groups.values()].filter((n) => n > 1).length} multi-part problems, ${yesNo.length} are yes/no questions; ${partOrConcept.length} (${Math.round((100 * partOrConcept.length) / bank.length)} %) are multi-part or conceptual.\n`;
  out += `- Kinds: ${bank.length - yesNo.length - choice.length - order.length} numeric (a value with its unit), ${yesNo.length} yes/no, ${choice.length} multiple choice (each option's why shown once chosen), ${order.length} ordering; the choice and ordering keys are computed by the estimators. Every calculator card also offers "predict, then reveal".\n`;
  out += `- ${bank.reduce((n, p) => n + p.mistakes.length, 0)} named mistakes, each with feedback saying why it is wrong.\n`;
  out += `- Difficulty: ${levels[0]} warm-up, ${levels[1]} core, ${levels[2]} challenge.\n`;
  out += `- ${tags.size} tags: ${[...tags].sort((a, b) => a[0].localeCompare(b[0])).map(([t, n]) => `${t} (${n})`).join(', ')}.\n`;
  out += `- Per estimator: ${[...perEstimator].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([e, n]) => `\`${e}\` ${n}`).join(', ')}.\n`;
  const areas = [...new Set(bank.map((p) => p.area))];
  for (const area of areas) {
    const ps = bank.filter((p) => p.area === area);
    out += `\n### ${AREAS[area] || area} (${ps.length} problems)\n\n| id | title | seed 0 answer | difficulty | tags | source | mistakes |\n|---|---|---|---|---|---|---|\n`;
    for (const p of ps) {
      const ans = answers.get(p.id).text;
      const cell = (s) => String(s).replace(/\|/g, '\\|');
      out += `| \`${p.id}\` | ${cell(p.title)} | ${cell(ans)} | ${p.difficulty} | ${cell(p.tags.join(', '))} | ${cell(p.source)} | ${p.mistakes.map((m) => `\`${m}\``).join(', ')} |\n`;
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
