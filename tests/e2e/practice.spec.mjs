import { test, expect, bank } from './fixtures.mjs';

test('a student works a problem, gets it wrong, reads a hint, then gets it right', async ({ page, problems }) => {
  await page.goto('/index.html#tab=practice&problem=train.time.days&seed=0');
  await page.waitForFunction(() => window.napkin);
  await bank(page);
  const problem = page.locator('article.problem[data-problem="train.time.days"]');
  await expect(problem.locator('.statement')).toContainText('512 A100s');
  // Issue #14.2: the source line quotes the original's answer, so it waits for an attempt;
  // "close" says which way, never by how much.
  await expect(problem.locator('.problem-source')).toBeHidden();
  expect(await problem.innerText()).not.toContain('121.7');  // what is rendered, not hidden text
  await problem.locator('[name="answer"]').fill('126 days');
  await problem.getByRole('button', { name: 'Check' }).click();
  await expect(problem.locator('.verdict')).toHaveAttribute('data-verdict', 'close');
  await expect(problem.locator('.verdict')).toContainText(/a little high/i);
  await expect(problem.locator('.score')).toHaveText('Score: half marks (the method right, the number a little off)');
  expect(await problem.locator('.verdict').textContent()).not.toMatch(/\d/);
  await expect(problem.locator('.problem-source')).toBeHidden();
  // A miss (close counts) joins the review queue at once.
  await expect(page.locator('.review-button')).toHaveText('Review what you missed (1 due)');
  // Issue #28: a bare number no one would write in days (10 million) is read in seconds, the
  // base unit, rather than asked about (#14.5 asked): 10,000,000 s is 115.7 days, a little low.
  await problem.locator('[name="answer"]').fill('10000000');
  await problem.getByRole('button', { name: 'Check' }).click();
  await expect(problem.locator('.verdict')).toHaveAttribute('data-verdict', 'close');
  await expect(problem.locator('.verdict')).toContainText(/a little low/i);
  await problem.locator('[name="answer"]').fill('60 days');
  await problem.getByRole('button', { name: 'Check' }).click();
  const verdict = problem.locator('.verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'wrong');
  await expect(verdict).toHaveAttribute('data-mistake', 'forgot_mfu');
  await expect(verdict).toContainText('MFU');
  await problem.locator('.hint-button').click();
  await expect(problem.locator('.hints li')).toHaveCount(1);
  await problem.locator('[name="answer"]').fill('121.7 days');
  await problem.getByRole('button', { name: 'Check' }).click();
  await expect(verdict).toHaveAttribute('data-verdict', 'correct');
  await expect(problem.locator('.problem-source')).toBeVisible();
  await expect(page.locator('.progress')).toContainText('streak 1');
  // Right now, the problem comes back in a day, not before.
  await expect(page.locator('.review-button')).toHaveText('Nothing due for review');
  await expect(page.locator('.review-button')).toBeDisabled();
  await problem.getByRole('button', { name: 'Show worked solution' }).click();
  await expect(problem.locator('.solution .step').first()).toContainText('Total training compute');
  // Progress survives a reload, and a corrupted store does not break the page.
  await page.reload();
  await expect(page.locator('.progress')).toContainText('Solved 1 of');
  await page.evaluate(() => localStorage.setItem('napkin-progress-v1', '{not json'));
  await page.reload();
  await expect(page.locator('.progress')).toContainText('Solved 0 of');
  expect(problems).toEqual([]);
});

test('a problem permalink restores problem and seed; new variants change the numbers', async ({ page }) => {
  await page.goto('/index.html#tab=practice&problem=train.chinchilla.tokens&seed=7');
  await page.waitForFunction(() => window.napkin);
  await bank(page);
  const problem = page.locator('article.problem');
  await expect(problem).toHaveAttribute('data-seed', '7');
  const statement = await problem.locator('.statement').textContent();
  await problem.getByRole('button', { name: 'New variant' }).click();
  const seedInHash = () => page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('seed'));
  await expect.poll(seedInHash).not.toBe('7');
  await expect(problem).toHaveAttribute('data-seed', await seedInHash());
  expect(await problem.locator('.statement').textContent()).not.toBe('');
  expect(statement).not.toBe('');
});

test('a third-party page embeds problems and a calculator under a strict CSP', async ({ page, problems }) => {
  await page.goto('/demo/index.html');
  const first = page.locator('napkin-problem').nth(1);
  await expect(first.locator('.statement')).toContainText('days');
  await first.locator('[name="answer"]').fill('121.7 days');
  await first.getByRole('button', { name: 'Check' }).click();
  await expect(first.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  await expect(page.locator('napkin-calculator [data-output="days"]')).toHaveText('121.7');
  const frame = page.frameLocator('#napkin-frame');
  await expect(frame.locator('.statement')).toContainText('175B');
  await expect.poll(async () => (await page.locator('#napkin-frame').boundingBox()).height).toBeGreaterThan(250);
  // Scores reach the host page: the element's event, and the iframe's message (a wrong answer
  // scores 0).
  const log = page.locator('#score-log li');
  await expect(log).toHaveText(['train.time.days (variant 0, element): correct, score 1']);
  await expect(first.locator('.score')).toHaveText('Score: full marks');
  await frame.locator('[name="answer"]').fill('1 token');
  await frame.getByRole('button', { name: 'Check' }).click();
  await expect(log.nth(1)).toHaveText('train.chinchilla.tokens (variant 0, iframe): wrong, score 0');
  expect(problems).toEqual([]);
});

// Issue #28: a course writes its own problems as a file (docs/authoring.md) or inside the page,
// and the embed grades them like the built-in ones. Issue #26: the built-in bank is fetched only
// when a problem needs it.
test('a course\'s own problems embed from a file (src=) and from JSON in the page', async ({ page, problems }) => {
  await page.goto('/demo/index.html');
  const file = page.locator('#course-file');
  await expect(file.locator('.statement')).toContainText('13B');
  await file.locator('[name="answer"]').fill('21900');  // forgot MFU: the file's named mistake
  await file.getByRole('button', { name: 'Check' }).click();
  await expect(file.locator('.verdict')).toHaveAttribute('data-mistake', 'forgot_mfu');
  const inline = page.locator('#course-inline');
  await expect(inline.locator('.statement')).toContainText('32 layers and 8 key/value heads of width 128');
  await inline.locator('[name="answer"]').fill('131.1');  // kB, the unit the box shows
  await inline.getByRole('button', { name: 'Check' }).click();
  await expect(inline.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  await inline.locator('[name="answer"]').fill('65.5 kB');
  await inline.getByRole('button', { name: 'Check' }).click();
  await expect(inline.locator('.verdict')).toHaveAttribute('data-mistake', 'forgot_k_and_v');
  expect(problems).toEqual([]);
});

// CI failure on 61df64a: the element's API had resolved before the parser reached the
// <script type="application/json"> inside it, so the element looked for the problem in the
// built-in bank and said "no problem". Here the document is written in two pieces with a pause
// between the element's start tag and its JSON, as a slow parser does.
test('a problem written inside the element loads even when the parser pauses inside it', async ({ page, problems }) => {
  await page.goto('/demo/index.html');
  await expect(page.locator('#course-inline .statement')).toContainText('32 layers');
  // A new id, so the module cannot already hold it from the demo's own inline problem.
  const json = (await page.locator('#course-inline script').textContent()).replace('week4.kv.bytes', 'week4.kv.slow');
  await page.evaluate(async (text) => {
    document.open();
    document.write('<!doctype html><title>slow</title><napkin-problem id="slow" problem="week4.kv.slow" seed="0">');
    await new Promise((r) => setTimeout(r, 300));
    document.write('<script type="application/json">' + text + '</' + 'script></napkin-problem>');
    document.close();
  }, json);
  await expect(page.locator('#slow .statement')).toContainText('32 layers and 8 key/value heads of width 128');
  expect(problems).toEqual([]);
});

test('the first screen fetches neither the problem bank nor the docs; Practice fetches the bank', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await page.waitForFunction(() => window.napkin && document.querySelector('[data-output="days"]')?.textContent);
  const fetched = () => page.evaluate(() => performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname));
  expect((await fetched()).filter((p) => /problems\.json|docs\.json/.test(p))).toEqual([]);
  await page.click('[data-tab="practice"]');
  await expect(page.locator('.problem-list li').first()).toBeVisible();
  expect(await fetched()).toContain('/problems.json');
  expect((await fetched()).filter((p) => /docs\.json/.test(p))).toEqual([]);
});

// Issue #28 item 5: opening the worked solution and then typing its answer was full marks, and
// the embed reported score 1 to the host page.
test('a correct answer after the worked solution was opened scores nothing, and says so', async ({ page }) => {
  await page.goto('/demo/index.html');
  const first = page.locator('napkin-problem').nth(1);
  await expect(first.locator('.statement')).toContainText('days');
  const scores = [];
  await page.exposeFunction('recordScore', (d) => scores.push(d));
  await page.evaluate(() => document.addEventListener('napkin-score', (e) => window.recordScore(e.detail)));
  await first.getByRole('button', { name: 'Show worked solution' }).click();
  await first.locator('[name="answer"]').fill('121.7 days');
  await first.getByRole('button', { name: 'Check' }).click();
  await expect(first.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  await expect(first.locator('.score')).toHaveText('Score: no marks (solved with the worked solution shown)');
  await expect.poll(() => scores.length).toBe(1);
  expect(scores[0]).toMatchObject({ problem: 'train.time.days', verdict: 'correct', score: 0, solutionShown: true });
});

// Issue #28 item 5: the last hint leads to the answer, so it scores like the worked solution; a
// problem may charge for the hints before it (train.checkpoint.goodput: 25 % each).
test('the last hint scores like the solution; an earlier hint costs what the problem states', async ({ page }) => {
  await page.goto('/index.html#tab=practice&problem=train.checkpoint.goodput&seed=0');
  await page.waitForFunction(() => window.napkin);
  const problem = page.locator('article.problem');
  const hint = problem.locator('.hint-button');
  await expect(hint).toHaveText('Hint (1 of 2) (each costs 25 % of the marks)');
  await hint.click();
  await expect(hint).toHaveText('Last hint (2 of 2): scores as the solution');
  // A wrong answer scores nothing and does not mention the hint.
  await problem.locator('[name="answer"]').fill('50%');
  await problem.getByRole('button', { name: 'Check' }).click();
  await expect(problem.locator('.verdict')).toHaveAttribute('data-verdict', 'wrong');
  await expect(problem.locator('.score')).toHaveText('Score: no marks');
  await problem.locator('[name="answer"]').fill('90.8%');
  await problem.getByRole('button', { name: 'Check' }).click();
  await expect(problem.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  await expect(problem.locator('.score')).toHaveText('Score: 75 % of the marks (1 hint used)');
  await page.goto('/index.html#tab=practice&problem=train.time.days&seed=0');
  await page.reload();
  await page.waitForFunction(() => window.napkin);
  const days = page.locator('article.problem[data-problem="train.time.days"]');
  for (let i = 0; i < 3; i++) await days.locator('.hint-button').click();
  await expect(days.locator('.hints li')).toHaveCount(3);
  await days.locator('[name="answer"]').fill('121.7 days');
  await days.getByRole('button', { name: 'Check' }).click();
  await expect(days.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  await expect(days.locator('.score')).toHaveText('Score: no marks (solved with the last hint shown)');
});

test('a missed problem comes back for review as a new variant', async ({ page, problems }) => {
  await page.goto('/index.html#tab=practice&problem=train.chinchilla.tokens&seed=0');
  await page.waitForFunction(() => window.napkin);
  await bank(page);
  const problem = page.locator('article.problem');
  await problem.locator('[name="answer"]').fill('1 token');
  await problem.getByRole('button', { name: 'Check' }).click();
  await expect(problem.locator('.verdict')).toHaveAttribute('data-verdict', 'wrong');
  // Somewhere else, then review: the missed problem opens again, with other numbers.
  await page.locator('.problem-list button').nth(3).click();
  await page.getByRole('button', { name: 'Review what you missed (1 due)' }).click();
  await expect(problem).toHaveAttribute('data-problem', 'train.chinchilla.tokens');
  await expect(problem).not.toHaveAttribute('data-seed', '0');
  expect(problems).toEqual([]);
});

test('a problem link pasted into the open page opens that problem', async ({ page, problems }) => {
  await page.goto('/index.html#tab=practice&problem=train.chinchilla.tokens&seed=0');
  await page.waitForFunction(() => window.napkin);
  await bank(page);
  await expect(page.locator('article.problem')).toHaveAttribute('data-problem', 'train.chinchilla.tokens');
  await page.evaluate(() => { location.hash = '#tab=practice&problem=train.time.days&seed=3'; });
  await expect(page.locator('article.problem')).toHaveAttribute('data-problem', 'train.time.days');
  await expect(page.locator('article.problem')).toHaveAttribute('data-seed', '3');
  expect(problems).toEqual([]);
});

// Issue #14: difficulty and tags on every problem, filters on both; the parts of a multi-part
// problem listed together and lettered, each leading to the next.
test('the difficulty and topic filters change which problems are offered; parts sit together', async ({ page, problems }) => {
  await page.goto('/index.html#tab=practice&problem=train.time.days&seed=0');
  await page.waitForFunction(() => window.napkin);
  await bank(page);
  const items = page.locator('.problem-list li[data-problem]');
  const titles = () => items.locator('button').allInnerTexts();
  const all = await titles();
  expect(all.length).toBeGreaterThan(80);
  await page.getByLabel('Practice difficulty').selectOption({ label: 'Warm-up' });
  const warm = await titles();
  expect(warm.length).toBeGreaterThan(5);
  expect(warm.length).toBeLessThan(all.length);
  for (const t of warm) expect(t).toMatch(/· Warm-up$/);
  expect(warm.join('\n')).toContain('Compute-optimal training tokens');
  expect(warm.join('\n')).not.toContain('The best draft length');
  // A topic on top of it narrows further; every problem offered carries the tag.
  await page.getByLabel('Practice difficulty').selectOption({ label: 'Any difficulty' });
  await page.getByLabel('Practice topic').selectOption({ label: 'KV cache' });
  const kv = await titles();
  expect(kv.length).toBeGreaterThan(2);
  expect(kv.length).toBeLessThan(all.length);
  expect(kv.join('\n')).toContain('KV cache of a GQA model');
  expect(kv.join('\n')).not.toContain('Compute-optimal training tokens');
  await items.first().locator('button').click();
  await expect(page.locator('article.problem .problem-tags')).toContainText('KV cache');
  // The mixed quiz draws from what the filters offer.
  await page.getByRole('button', { name: 'Random problem (mixed quiz)' }).click();
  await expect(page.locator('article.problem .problem-tags')).toContainText('KV cache');
  // Nothing matches: the list says so.
  await page.getByLabel('Practice topic').selectOption({ label: 'speculative decoding' });
  await page.getByLabel('Practice difficulty').selectOption({ label: 'Warm-up' });
  await expect(page.locator('.problem-list')).toContainText('No problem matches these filters.');
  // Parts: lettered under one entry; a part says which it is and leads to the next.
  await page.getByLabel('Practice topic').selectOption({ label: 'Any topic' });
  await page.getByLabel('Practice difficulty').selectOption({ label: 'Any difficulty' });
  const group = page.locator('.problem-group').filter({ hasText: 'Data-parallel traffic per step' });
  await expect(group.locator('.group-title')).toHaveText('3 parts');
  await group.getByRole('button', { name: /^\(a\) / }).click();
  const problem = page.locator('article.problem');
  await expect(problem.locator('.problem-part')).toHaveText('Part (a) of (a)–(c)');
  await problem.getByRole('button', { name: 'Next part (b)' }).click();
  await expect(problem.locator('.problem-part')).toHaveText('Part (b) of (a)–(c)');
  // The next part keeps the variant: its model is part (a)'s.
  await page.goto('/index.html#tab=practice&problem=infer.kv.per_token&seed=5');
  const kvA = page.locator('article.problem[data-problem="infer.kv.per_token"]');
  const layers = (await kvA.locator('.statement').textContent()).match(/(\d+) layers/)[1];
  await kvA.getByRole('button', { name: 'Next part (b)' }).click();
  const kvB = page.locator('article.problem[data-problem="infer.kv.batch"]');
  await expect(kvB).toHaveAttribute('data-seed', '5');
  await expect(kvB.locator('.statement')).toContainText(`${layers} layers`);
  // A yes/no question: neither its label nor its example shows the answer before an attempt.
  await page.goto('/index.html#tab=practice&problem=hw.roofline.step_bound&seed=0');
  const yn = page.locator('article.problem[data-problem="hw.roofline.step_bound"]');
  await expect(yn.locator('label')).toHaveText('Your answer (yes or no)');
  await expect(yn.locator('[name="answer"]')).toHaveAttribute('placeholder', 'yes or no');
  await yn.locator('[name="answer"]').fill('no');
  await yn.getByRole('button', { name: 'Check' }).click();
  await expect(yn.locator('.verdict')).toHaveAttribute('data-verdict', 'correct');
  expect(problems).toEqual([]);
});
