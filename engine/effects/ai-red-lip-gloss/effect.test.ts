/** Red lip gloss over real HTTP (async: task_id, then data.result_urls), on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, pollTask, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';

const GLOSS = '/api/portrait/effects/ai-red-lip-gloss';
let e: TestEngine;

beforeAll(async () => { e = await startTestEngine(); await waitReady(e); });
afterAll(async () => { await e.close(); });

async function gloss(image: Buffer) {
  const submit = await post(e, GLOSS, form({ image }));
  expect(submit.status, JSON.stringify(submit.body.error_detail)).toBe(200);
  expect(typeof submit.body.task_id).toBe('string');
  return pollTask(e, submit.body.task_id);
}
const raw = async (bytes: Buffer) => sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
const luma = (d: Buffer, i: number) => 0.299 * d[3 * i] + 0.587 * d[3 * i + 1] + 0.114 * d[3 * i + 2];

describe('ai-red-lip-gloss', () => {
  it('makes the lips red with a highlight on them, and touches nothing else', async () => {
    const image = fixture('obama_official_portrait.jpg');
    const done = await gloss(image);
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('');
    const [url] = done.body.data.result_urls;
    const file = await get(e, new URL(url).pathname, {});
    expect(file.status).toBe(200);
    const a = await raw(image), b = await raw(file.body as Buffer);
    expect([b.info.width, b.info.height]).toEqual([a.info.width, a.info.height]);
    const w = a.info.width;
    let n = 0, redder = 0, brighter = 0, x0 = w, x1 = 0, y0 = a.info.height, y1 = 0;
    for (let i = 0; i < w * a.info.height; i++) {
      const d = [0, 1, 2].map((c) => b.data[3 * i + c] - a.data[3 * i + c]);
      if (Math.max(...d.map(Math.abs)) <= 12) continue;
      n++;
      const x = i % w, y = Math.floor(i / w);
      x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      const red = (p: Buffer) => p[3 * i] - (p[3 * i + 1] + p[3 * i + 2]) / 2;
      if (red(b.data) > red(a.data)) redder++;
      if (luma(b.data, i) > luma(a.data, i) + 20) brighter++;
    }
    // The portrait's mouth: about x 430-540, y 330-400 (face box x 300-680, y 60-480).
    expect(n).toBeGreaterThan(1500);
    expect(x0).toBeGreaterThan(400); expect(x1).toBeLessThan(580);
    expect(y0).toBeGreaterThan(300); expect(y1).toBeLessThan(440);
    expect(redder / n).toBeGreaterThan(0.8);
    // A highlight: some lip pixels much brighter than before, but a small part of the lips, not a sheet.
    expect(brighter).toBeGreaterThan(15);
    expect(brighter / n).toBeLessThan(0.25);
  });

  it('ends a task on a photo without a face as 422 ERROR_NO_FACE_IN_FILE', async () => {
    const done = await gloss(fixture('product_coffee_cup.png'));
    expect(done.body.task_status).toBe(2);
    expect(done.body.data).toBeUndefined();
    expect(done.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
  });

  it('refuses formats its limits leave out (BMP) with 415', async () => {
    const bmp = Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)]);
    const r = await post(e, GLOSS, form({ image: bmp }));
    expect(r.status).toBe(415);
    expect(r.body.error_detail.code).toBe('UNSUPPORTED_FILE_TYPES');
  });
});
