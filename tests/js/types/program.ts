// A program a course author might write against dist/napkin.d.ts: it must compile under
// `tsc --strict` and run against the real module (tests/js/types.test.cjs). Every field it reads
// is declared; every assertion checks the value is there at run time too.
import createNapkin = require('../../../build/wasm/napkin.js');

function ok(cond: boolean, what: string): void {
  if (!cond) throw new Error('shape mismatch: ' + what);
}
// A failed call carries an error object; parse's unreadable text is {ok: false, error: text}.
function failed(x: object): x is createNapkin.Failed {
  return 'error' in x && typeof (x as { error: unknown }).error === 'object';
}
declare const process: { exitCode?: number };

async function main(): Promise<void> {
  const napkin: createNapkin.Napkin = await createNapkin();
  const reg = napkin.list();
  if (failed(reg)) throw new Error(reg.error.message);
  const est: createNapkin.Estimator = reg.estimators[0];
  ok(typeof est.id === 'string' && typeof est.doc === 'string', 'Estimator');
  const input: createNapkin.InputSpec = est.inputs[0];
  ok(typeof input.help === 'string' && typeof input.unit === 'string' && typeof input.allowed === 'string', 'InputSpec');
  ok(['number', 'choice', 'boolean', 'text'].includes(input.kind), 'InputSpec.kind');
  const output: createNapkin.OutputSpec = est.outputs[0];
  ok(typeof output.label === 'string', 'OutputSpec');
  const preset: createNapkin.Preset = reg.presets[0];
  ok(typeof preset.kind === 'string' && typeof preset.values === 'object', 'Preset');

  const run = napkin.run('train.time', { params: 70e9, tokens: '2T', gpus: 512, gpu: 'a100' });
  if (failed(run)) throw new Error(run.error.message);
  const days = run.outputs.days;
  ok(typeof days === 'number' && days > 0, 'RunResult.outputs');
  // A preset's step is a note; the formulas follow.
  const note: createNapkin.Step = run.steps[0];
  ok(typeof note.title === 'string' && typeof note.note === 'string', 'Step (note)');
  const step = run.steps.find((s) => s.formula !== undefined);
  ok(step !== undefined && typeof step.substituted === 'string' && typeof step.value === 'number', 'Step');
  ok(Array.isArray(run.warnings), 'RunResult.warnings');
  ok(napkin.format(2477260800000, 'J') === '688.1 MWh', 'format');

  const bad = napkin.run('train.time', { params: -1, tokens: 1e12, gpus: 8 });
  ok(failed(bad) && bad.error.input === 'params' && typeof bad.error.message === 'string', 'Failed');

  const sweep = napkin.sweep('train.time', { params: 7e9, tokens: 1e12, gpus: 8 }, 'gpus', [8, 16]);
  if (failed(sweep)) throw new Error(sweep.error.message);
  const col: Array<number | null> = sweep.outputs.days;
  ok(col.length === 2 && sweep.x.length === 2 && sweep.errors.length === 2, 'SweepResult');

  const parsed = napkin.parse('80 GB', 'B');
  ok(!failed(parsed) && parsed.ok === true && parsed.value === 80e9, 'ParseResult ok');
  const unread = napkin.parse('eighty', 'B');
  ok(!failed(unread) && unread.ok === false && typeof unread.error === 'string', 'ParseResult error');

  const loaded = await napkin.loadDeferred();
  ok(!failed(loaded), 'loadDeferred');
  const file = {
    napkin_problems: 1,
    problems: [{
      id: 'week3.days', area: 'training', title: 'Days', statement: 'How many days?',
      estimator: 'train.time', inputs: { params: 13e9, tokens: 1e12, gpus: 64 }, output: 'days',
      hints: ['6·N·D over the cluster.'], difficulty: 1, tags: 'training time',
    }],
  };
  const reply = napkin.loadProblems(file);
  if (failed(reply)) throw new Error(reply.error.message);
  ok(reply.loaded === 1 && reply.errors.length === 0 && reply.ids[0] === 'week3.days', 'LoadReply');
  const list = napkin.problems();
  if (failed(list)) throw new Error(list.error.message);
  ok(list.problems.some((p) => p.id === 'week3.days'), 'problems()');
  const p = napkin.problem('week3.days', 0);
  if (failed(p)) throw new Error(p.error.message);
  ok(typeof p.statement === 'string' && typeof p.hint_cost === 'number' && Array.isArray(p.solution), 'Problem');
  const c = napkin.check('week3.days', 0, p.answer.text as string);
  if (failed(c)) throw new Error(c.error.message);
  ok(c.verdict === 'correct' && c.score === 1 && c.mistake === null, 'CheckReply');

  const search = await napkin.search({ model: 'llama3-8b', gpu: 'h100', gpus: 8 });
  if (failed(search)) throw new Error(search.error.message);
  ok(search.best !== null && typeof search.best.layout === 'object' && search.top.length > 0, 'SearchResult');
  console.log('types: every declared shape matched');
}

main().catch((e: unknown) => {
  console.error(String(e));
  process.exitCode = 1;
});
