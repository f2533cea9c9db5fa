/** Lip colour over real HTTP, on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XywhRect } from '../../../contract/rectangles.ts';
import { fixture, form, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';

const LIPS = '/api/portrait/effects/lips-color-changer';
let e: TestEngine;
let pair: Buffer;
/** Face boxes of `pair` from the analyzer: the official portrait's (larger) first. */
let faces: XywhRect[];

beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
  const obama = await sharp(fixture('obama_official_portrait.jpg')).resize({ height: 800 }).toBuffer();
  const astronaut = await sharp(fixture('astronaut_eileen_collins.png')).resize({ height: 512 }).removeAlpha().toBuffer();
  const om = await sharp(obama).metadata();
  pair = await sharp({ create: { width: om.width! + 512, height: 800, channels: 3, background: '#808080' } })
    .composite([{ input: obama, left: 0, top: 0 }, { input: astronaut, left: om.width!, top: 144 }]).png().toBuffer();
  const r = await post(e, '/api/portrait/analysis/face-analyzer', form({ image: pair, max_face_num: '2' }));
  faces = r.body.face_detail_infos.map((f: { face_rect: XywhRect }) => f.face_rect);
});
afterAll(async () => { await e.close(); });

const colour = (image: Buffer, infos: unknown) => post(e, LIPS, form({ image, lip_color_infos: typeof infos === 'string' ? infos : JSON.stringify(infos) }));
const pixels = async (bytes: Buffer) => (await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true }));

/** Pixels that changed by more than 12 in some channel: where, and their colours before and after. */
async function changes(before: Buffer, answer: { body: { result_image: string } }) {
  const a = await pixels(before), b = await pixels(Buffer.from(answer.body.result_image, 'base64'));
  expect([b.info.width, b.info.height]).toEqual([a.info.width, a.info.height]);
  const w = a.info.width;
  const out: { x: number; y: number; before: number[]; after: number[] }[] = [];
  for (let i = 0; i < w * a.info.height; i++) {
    const p = [a.data[3 * i], a.data[3 * i + 1], a.data[3 * i + 2]], q = [b.data[3 * i], b.data[3 * i + 1], b.data[3 * i + 2]];
    if (Math.max(...p.map((v, c) => Math.abs(v - q[c]))) > 12) out.push({ x: i % w, y: Math.floor(i / w), before: p, after: q });
  }
  return out;
}
const inMouthOf = (f: XywhRect) => (p: { x: number; y: number }) =>
  p.x > f.x + 0.15 * f.width && p.x < f.x + 0.85 * f.width && p.y > f.y + 0.55 * f.height && p.y < f.y + 1.1 * f.height;
const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
const luma = (p: number[]) => 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
function correlation(a: number[], b: number[]) {
  const ma = mean(a), mb = mean(b);
  let s = 0, sa = 0, sb = 0;
  for (let i = 0; i < a.length; i++) { s += (a[i] - ma) * (b[i] - mb); sa += (a[i] - ma) ** 2; sb += (b[i] - mb) ** 2; }
  return s / Math.sqrt(sa * sb);
}

describe('lips-color-changer', () => {
  it('colours the largest face\'s lips only, toward the colour, keeping their shading', async () => {
    const r = await colour(pair, [{ rgba: { r: 70, g: 40, b: 200, a: 100 } }]);
    expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
    expect(r.body.error_detail).toEqual({ code: '', code_message: '', message: '' });
    const changed = await changes(pair, r);
    // Lips of a face about 180 px wide: a few thousand pixels, all in its mouth area, none elsewhere.
    expect(changed.length).toBeGreaterThan(800);
    expect(changed.filter(inMouthOf(faces[0])).length).toBe(changed.length);
    // Toward blue-violet: blue now above red, which it was not before.
    expect(mean(changed.map((p) => p.after[2] - p.after[0]))).toBeGreaterThan(20);
    expect(mean(changed.map((p) => p.before[2] - p.before[0]))).toBeLessThan(0);
    // Shading and texture: the lips' lightness pattern survives (correlated), its level moves little.
    expect(correlation(changed.map((p) => luma(p.before)), changed.map((p) => luma(p.after)))).toBeGreaterThan(0.7);
    expect(Math.abs(mean(changed.map((p) => luma(p.after) - luma(p.before))))).toBeLessThan(25);
  });

  it('picks the face that face_rect overlaps, and colours several faces in one call', async () => {
    const small = await changes(pair, await colour(pair, [{ rgba: { r: 200, g: 20, b: 60, a: 100 }, face_rect: faces[1] }]));
    expect(small.length).toBeGreaterThan(200);
    expect(small.filter(inMouthOf(faces[1])).length).toBe(small.length);
    const both = await changes(pair, await colour(pair, [
      { rgba: { r: 200, g: 20, b: 60, a: 100 }, face_rect: faces[0] },
      { rgba: { r: 150, g: 40, b: 120, a: 100 }, face_rect: faces[1] },
    ]));
    expect(both.filter(inMouthOf(faces[0])).length).toBeGreaterThan(800);
    expect(both.filter(inMouthOf(faces[1])).length).toBeGreaterThan(200);
    expect(both.filter((p) => !inMouthOf(faces[0])(p) && !inMouthOf(faces[1])(p))).toHaveLength(0);
  });

  it('respects opacity: 0 changes nothing, 40 about half of what 100 does', async () => {
    const image = fixture('obama_official_portrait.jpg');
    const none = await colour(image, [{ rgba: { r: 70, g: 40, b: 200, a: 0 } }]);
    expect(await changes(image, none)).toHaveLength(0);
    const delta = async (a: number) => {
      const c = await changes(image, await colour(image, [{ rgba: { r: 70, g: 40, b: 200, a } }]));
      return { n: c.length, shift: mean(c.map((p) => p.after[2] - p.before[2])) };
    };
    const full = await delta(100), part = await delta(40);
    expect(part.n).toBeLessThan(full.n);
    expect(part.shift).toBeGreaterThan(0.25 * full.shift);
    expect(part.shift).toBeLessThan(0.75 * full.shift);
  });

  it('answers 422 without a face, or when face_rect overlaps none', async () => {
    const cup = await colour(fixture('product_coffee_cup.png'), [{ rgba: { r: 200, g: 20, b: 60, a: 80 } }]);
    expect(cup.status).toBe(422);
    expect(cup.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
    const away = await colour(pair, [{ rgba: { r: 200, g: 20, b: 60, a: 80 }, face_rect: { x: 5, y: 700, width: 40, height: 40 } }]);
    expect(away.status).toBe(422);
    expect(away.body.error_detail.message).toContain('lip_color_infos[0].face_rect');
  });

  it('answers 400 naming what was wrong and what is allowed', async () => {
    const image = fixture('astronaut_eileen_collins.png');
    const missing = await post(e, LIPS, form({ image }));
    expect(missing.status).toBe(400);
    expect(missing.body.error_detail.code).toBe('MISSING_PARAMETERS');
    expect(missing.body.error_detail.message).toContain('lip_color_infos');
    const ok = { rgba: { r: 1, g: 2, b: 3, a: 50 } };
    const bad: [unknown, string][] = [
      ['red', 'JSON array'],
      ['[]', 'JSON array of 1..3'],
      [[ok, ok, ok, ok], 'JSON array of 1..3'],
      [[{ rgba: { r: 300, g: 0, b: 0, a: 50 } }], 'lip_color_infos[0].rgba'],
      [[ok, { rgba: { r: 10, g: 0, b: 0, a: 101 } }], 'lip_color_infos[1].rgba: expected {"r":0-255,"g":0-255,"b":0-255,"a":0-100}'],
      [[{ color: 'red' }], 'lip_color_infos[0].rgba'],
      [[{ ...ok, face_rect: { x: 0, y: 0, width: 0, height: 10 } }], 'lip_color_infos[0].face_rect'],
    ];
    for (const [infos, says] of bad) {
      const r = await colour(image, infos);
      expect(r.status, JSON.stringify(infos)).toBe(400);
      expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
      expect(r.body.error_detail.message).toContain(says);
    }
  });
});
