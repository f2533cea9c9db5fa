import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { runEffect } from '../../pipeline/run.ts';
import { ModelRegistry } from '../../vision/models/registry.ts';
import type { RasterImage } from '../../image/raster.ts';
import effect from './effect.ts';

const fixture = path.join(import.meta.dirname, '../../test/fixtures/product_coffee_cup.png');
const models = new ModelRegistry({ threads: 2 });
const kit = { models, signal: new AbortController().signal };
let cup: RasterImage; // 600x400 RGB: cup on a saucer in the middle, wooden table around

const run = async (image: RasterImage, return_form?: string) =>
  (await runEffect(effect, { image, params: { return_form } }, kit)).images.result;
// The cup's results by form, each computed once and compared across tests.
const cupRuns = new Map<string, ReturnType<typeof run>>();
const runCup = (form?: string) => {
  if (!cupRuns.has(form ?? '')) cupRuns.set(form ?? '', run(cup, form));
  return cupRuns.get(form ?? '')!;
};

async function decode(png: Buffer) {
  const meta = await sharp(png).metadata();
  const s = sharp(png);
  const { data, info } = await (meta.channels === 1 ? s.toColourspace('b-w') : s).raw().toBuffer({ resolveWithObject: true });
  return { meta, data, width: info.width, height: info.height, channels: info.channels };
}

/** Share of pixels in [x0, x1) x [y0, y1) whose channel c is >= 128. */
function share(img: { data: Buffer; width: number; channels: number }, c: number, x0: number, y0: number, x1: number, y1: number) {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (img.data[(y * img.width + x) * img.channels + c] >= 128) n++;
  return n / ((x1 - x0) * (y1 - y0));
}
const corners = (w: number, h: number, s = 30) => [[0, 0], [w - s, 0], [0, h - s], [w - s, h - s]].map(([x, y]) => [x, y, x + s, y + s] as const);

beforeAll(async () => {
  const { data, info } = await sharp(fs.readFileSync(fixture)).raw().toBuffer({ resolveWithObject: true });
  cup = { data, width: info.width, height: info.height, channels: info.channels as 3 };
  await models.get(effect.models[0]);
});

describe('commodity-background-removal', () => {
  it('mask: a single-channel PNG at input size, foreground on the cup, background at the corners', async () => {
    const out = await runCup('mask');
    expect(out.format).toBe('png');
    const m = await decode(out.data);
    expect([m.meta.format, m.meta.channels, m.width, m.height]).toEqual(['png', 1, 600, 400]);
    expect(share(m, 0, 220, 60, 380, 260)).toBeGreaterThan(0.97); // cup body
    expect(share(m, 0, 120, 280, 460, 340)).toBeGreaterThan(0.9); // saucer in front
    for (const [x0, y0, x1, y1] of corners(600, 400)) expect(share(m, 0, x0, y0, x1, y1)).toBeLessThan(0.02);
  });

  it('unset: an RGBA PNG whose alpha is the mask and whose colours are the photo', async () => {
    const [rgba, mask] = await Promise.all([runCup(), runCup('mask')]);
    const r = await decode(rgba.data);
    const m = await decode(mask.data);
    expect([r.meta.channels, r.width, r.height]).toEqual([4, 600, 400]);
    let same = 0, colourOk = 0, opaque = 0;
    for (let i = 0; i < 600 * 400; i++) {
      if (r.data[i * 4 + 3] === m.data[i]) same++;
      if (r.data[i * 4 + 3] === 255) {
        opaque++;
        if (r.data[i * 4] === cup.data[i * 3] && r.data[i * 4 + 1] === cup.data[i * 3 + 1] && r.data[i * 4 + 2] === cup.data[i * 3 + 2]) colourOk++;
      }
    }
    expect(same).toBe(600 * 400);
    expect(opaque).toBeGreaterThan(600 * 400 * 0.3);
    expect(colourOk).toBe(opaque);
  });

  it('whiteBK: RGB with the cup kept and white corners', async () => {
    const w = await decode((await runCup('whiteBK')).data);
    expect([w.meta.channels, w.meta.hasAlpha, w.width, w.height]).toEqual([3, false, 600, 400]);
    for (const [x0, y0, x1, y1] of corners(600, 400)) {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
        const i = (y * 600 + x) * 3;
        expect(Math.min(w.data[i], w.data[i + 1], w.data[i + 2])).toBeGreaterThan(245);
      }
    }
    // The saucer (dark red) is still there, not whitened.
    const i = (310 * 600 + 150) * 3;
    expect(w.data[i + 1]).toBeLessThan(120);
  });

  it('crop: the RGBA result trimmed to the subject, containing the whole cup and saucer', async () => {
    const [crop, full] = await Promise.all([runCup('crop'), runCup()]);
    const c = await decode(crop.data);
    const f = await decode(full.data);
    expect(c.meta.channels).toBe(4);
    expect(c.width * c.height).toBeLessThan(600 * 400 * 0.8);
    expect(c.width).toBeGreaterThan(350); // the saucer spans ~400 px
    expect(c.height).toBeGreaterThan(300);
    // It is exactly the box of alpha > 8 in the untrimmed result.
    let left = 600, top = 400, right = -1, bottom = -1;
    for (let y = 0; y < 400; y++) for (let x = 0; x < 600; x++) if (f.data[(y * 600 + x) * 4 + 3] > 8) {
      left = Math.min(left, x); right = Math.max(right, x); top = Math.min(top, y); bottom = Math.max(bottom, y);
    }
    expect([c.width, c.height]).toEqual([right - left + 1, bottom - top + 1]);
    for (const [x, y] of [[0, 0], [c.width >> 1, c.height >> 1], [c.width - 1, c.height - 1]]) {
      const a = (y * c.width + x) * 4, b = ((y + top) * 600 + x + left) * 4;
      expect([...c.data.subarray(a, a + 4)]).toEqual([...f.data.subarray(b, b + 4)]);
    }
  });

  it('keeps transparent input pixels transparent (RGBA input)', async () => {
    const rgba = await sharp(cup.data, { raw: cup }).ensureAlpha().raw().toBuffer();
    // A 12 px transparent slot through the cup (a whole half cut away makes the model unsure of the rest).
    for (let y = 0; y < 400; y++) for (let x = 294; x < 306; x++) rgba[(y * 600 + x) * 4 + 3] = 0;
    const m = await decode((await run({ data: rgba, width: 600, height: 400, channels: 4 }, 'mask')).data);
    expect(share(m, 0, 294, 0, 306, 400)).toBe(0);
    expect(share(m, 0, 220, 60, 290, 260)).toBeGreaterThan(0.95);
    expect(share(m, 0, 310, 60, 380, 260)).toBeGreaterThan(0.95);
  });

  it('refines at full resolution when the photo is larger than the model grid', async () => {
    const big = await sharp(cup.data, { raw: cup }).resize(1500, 1000).raw().toBuffer();
    const m = await decode((await run({ data: big, width: 1500, height: 1000, channels: 3 }, 'mask')).data);
    expect([m.width, m.height]).toEqual([1500, 1000]);
    expect(share(m, 0, 550, 150, 950, 650)).toBeGreaterThan(0.97);
    for (const [x0, y0, x1, y1] of corners(1500, 1000, 75)) expect(share(m, 0, x0, y0, x1, y1)).toBeLessThan(0.02);
  });

  it('gives the soft edge the subject\'s colour, not the old background\'s (the cup laid on blue)', async () => {
    // Blue, which neither the cup, the saucer nor the table has much of.
    const mask = await decode((await runCup('mask')).data);
    const onBlue = Buffer.alloc(cup.data.length);
    const blue = [20, 40, 230];
    for (let i = 0; i < 600 * 400; i++) {
      const a = mask.data[i];
      for (let c = 0; c < 3; c++) onBlue[i * 3 + c] = Math.round((a * cup.data[i * 3 + c] + (255 - a) * blue[c]) / 255);
    }
    const r = await decode((await run({ data: onBlue, width: 600, height: 400, channels: 3 })).data);
    // Blue's excess over red and green in the partly transparent pixels, weighted by their alpha (what shows
    // on a new background): the photo's own colours there against the colours the cutout gives them.
    const excess = (px: Uint8Array | Buffer, k: number) => px[k + 2] - (px[k] + px[k + 1]) / 2;
    let before = 0, after = 0, soft = 0;
    for (let i = 0; i < 600 * 400; i++) {
      const a = r.data[i * 4 + 3];
      if (a === 0 || a === 255) continue;
      soft++;
      before += (a / 255) * excess(onBlue, i * 3);
      after += (a / 255) * excess(r.data, i * 4);
    }
    expect(soft).toBeGreaterThan(500);
    expect(after / soft).toBeLessThan(0.5 * (before / soft));
  });

  it('crop with nothing found: the whole frame, fully transparent (no error)', async () => {
    const flat = { data: Buffer.alloc(64 * 48 * 3, 200), width: 64, height: 48, channels: 3 as const };
    const c = await decode((await run(flat, 'crop')).data);
    expect([c.width, c.height, c.channels]).toEqual([64, 48, 4]);
    expect(share(c, 3, 0, 0, 64, 48)).toBe(0);
  });
});
