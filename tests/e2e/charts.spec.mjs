// Charts as a person sees them (issue #30.7): the exported PNG carries its title and legend,
// a tap on a touch screen moves the readout, a phone's log axis is labelled, the user's point
// has a colour of its own, dark mode is dark, and a chart waiting for valid inputs stays
// readable. Canvas text is read by recording what the page draws (fillText), since a canvas
// has no DOM.
import { test, expect, ready, axe } from './fixtures.mjs';

// Every fillText call, with the context's state, per canvas (window.drawn(canvas)).
async function recordCanvas(page) {
  await page.addInitScript(() => {
    const calls = new WeakMap();
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, x, y, ...rest) {
      if (!calls.has(this.canvas)) calls.set(this.canvas, []);
      calls.get(this.canvas).push({ text: String(text), x, y, align: this.textAlign, baseline: this.textBaseline, fill: String(this.fillStyle), font: this.font });
      return fill.call(this, text, x, y, ...rest);
    };
    window.drawn = (canvas) => calls.get(canvas) || [];
    window.redraw = (canvas) => {
      calls.set(canvas, []);
      canvas.dispatchEvent(new PointerEvent('pointerleave', { pointerType: 'mouse' }));
      return calls.get(canvas);
    };
  });
}

const chart = (page, id) => page.locator(`[data-chart="${id}"]`);

test('the exported PNG carries the chart\'s title and legend, drawn into the picture', async ({ page }) => {
  await page.goto('/index.html#tab=training');
  await ready(page);
  const fig = chart(page, 'train-days-gpus');
  await expect(fig.locator('canvas')).toBeVisible();
  const onScreen = await fig.locator('canvas').evaluate((c) => ({ w: c.width, h: c.height }));
  const [png] = await Promise.all([page.waitForEvent('download'), fig.getByRole('button', { name: 'Download PNG' }).click()]);
  const bytes = await (await png.createReadStream()).toArray();
  const b64 = Buffer.concat(bytes).toString('base64');
  // Read the picture back: taller than the chart (a title band above, a legend below), with
  // drawn text (dark pixels on the light background) in both bands.
  const seen = await page.evaluate(async ({ b64, onScreen }) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const ink = (y0, y1) => {
      const d = ctx.getImageData(0, y0, c.width, y1 - y0).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] + d[i + 2] < 200) n++;
      return n;
    };
    const scale = img.width / onScreen.w;
    const extra = img.height - onScreen.h * scale;
    return { extra: extra / scale, top: ink(0, Math.round(22 * scale)), bottom: ink(img.height - Math.round(30 * scale), img.height) };
  }, { b64, onScreen });
  expect(seen.extra).toBeGreaterThanOrEqual(60);
  expect(seen.top).toBeGreaterThan(50);
  expect(seen.bottom).toBeGreaterThan(50);
});

test.describe('on a touch phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
  test('tapping a chart moves its readout to the tapped x', async ({ page }) => {
    await page.goto('/index.html#tab=training');
    await ready(page);
    const fig = chart(page, 'train-days-gpus');
    const canvas = fig.locator('canvas');
    await canvas.scrollIntoViewIfNeeded();
    await expect(canvas).toBeVisible();
    const x = fig.locator('.chart-legend td').first();
    const before = await x.textContent();
    const box = await canvas.boundingBox();
    await page.touchscreen.tap(box.x + box.width * 0.85, box.y + box.height * 0.5);
    await expect(x).not.toHaveText(before);
    // It stays after the finger lifts (no hover to keep it on a touch screen).
    await page.waitForTimeout(300);
    await expect(x).not.toHaveText(before);
  });
});

for (const width of [320, 390]) {
  test(`every log axis has at least 3 labelled ticks at ${width} px`, async ({ page }) => {
    test.setTimeout(90000);
    await recordCanvas(page);
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/index.html');
    await ready(page);
    const charts = await page.evaluate(() => window.napkin.list().charts.map((c) => ({ id: c.id, area: window.napkin.list().estimators.find((e) => e.id === c.estimator).area, log_x: c.log_x, log_y: c.log_y })));
    const few = [];
    let checked = 0;
    for (const c of charts.filter((x) => x.log_x || x.log_y)) {
      await page.click(`[data-tab="${c.area}"]`);
      const canvas = chart(page, c.id).locator('canvas');
      await expect(canvas).toBeVisible({ timeout: 10000 });
      const calls = await canvas.evaluate((cv) => window.redraw(cv));
      const xt = calls.filter((k) => k.align === 'center' && k.baseline === 'top').length;
      const yt = calls.filter((k) => k.align === 'right' && k.baseline === 'middle').length;
      if (c.log_x && xt < 3) few.push(`${c.id}: ${xt} x ticks`);
      if (c.log_y && yt < 3) few.push(`${c.id}: ${yt} y ticks`);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    expect(few).toEqual([]);
  });
}

test('"your inputs" is drawn in a colour no series uses', async ({ page }) => {
  await recordCanvas(page);
  await page.goto('/index.html#tab=training');
  await ready(page);
  const fig = chart(page, 'train-days-gpus');
  const canvas = fig.locator('canvas');
  await expect(canvas).toBeVisible();
  const calls = await canvas.evaluate((cv) => window.redraw(cv));
  const mine = calls.find((k) => /your inputs/i.test(k.text));
  expect(mine, 'the user\'s point is labelled').toBeTruthy();
  const swatches = await fig.locator('.chart-legend .swatch').evaluateAll((ss) => ss.map((s) => {
    const c = document.createElement('canvas').getContext('2d');
    c.fillStyle = getComputedStyle(s).backgroundColor;
    return c.fillStyle;
  }));
  expect(swatches.length).toBeGreaterThanOrEqual(2);
  expect(swatches).not.toContain(mine.fill);
});

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' });
  test('charts are drawn dark, with light text', async ({ page }) => {
    await recordCanvas(page);
    await page.goto('/index.html#tab=training');
    await ready(page);
    const canvas = chart(page, 'train-days-gpus').locator('canvas');
    await expect(canvas).toBeVisible();
    await page.waitForTimeout(200);
    const { bg, text } = await canvas.evaluate((cv) => {
      const calls = window.redraw(cv);
      const d = cv.getContext('2d').getImageData(2, 2, 1, 1).data;
      const lum = (r, g, b) => (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      const c = document.createElement('canvas').getContext('2d');
      const label = calls.find((k) => k.align === 'center' && k.baseline === 'top');
      c.fillStyle = label.fill;
      const hex = c.fillStyle.replace('#', '');
      return { bg: lum(d[0], d[1], d[2]), text: lum(parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16)) };
    });
    expect(bg).toBeLessThan(0.2);
    expect(text).toBeGreaterThan(0.5);
  });
});

test.describe('a chart waiting for valid inputs', () => {
  test.use({ bypassCSP: true });
  test('keeps its legend readable: axe-core finds no contrast failure in the card', async ({ page }) => {
    await page.goto('/index.html#tab=training');
    await ready(page);
    const form = page.locator('form[data-estimator="train.time"]');
    await expect(form.locator('[data-chart="train-days-gpus"] canvas')).toBeVisible();
    await form.locator('[name="gpus"]').fill('-3');
    await expect(form.locator('[data-chart="train-days-gpus"]')).toHaveClass(/stale/);
    expect((await axe(page, 'form[data-estimator="train.time"]')).filter((v) => v.startsWith('color-contrast'))).toEqual([]);
    // No stale numbers in its legend either.
    for (const td of await form.locator('[data-chart="train-days-gpus"] .chart-legend td').allTextContents()) expect(td).toMatch(/^(—)?$/);
  });
});
