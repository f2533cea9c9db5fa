/**
 * The advanced skin retouch over real HTTP (async: task_id, then data.result_urls), on the public-domain
 * portraits in engine/test/fixtures. Blemishes are rendered onto the portrait at places read from its own
 * mesh, so the test knows where they are and what the skin looked like before them.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, pollTask, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';
import type { RasterImage } from '../../image/raster.ts';
import { rgbToLab } from '../../image/colour.ts';
import { detectFaces, type Face } from '../../vision/faces/detect.ts';
import type { HumanLike } from '../../vision/models/human.ts';
import { ModelRegistry } from '../../vision/models/registry.ts';
import { meshFaceWidth } from '../../vision/regions/skin-mask.ts';
import { pixelsPerMm } from './blemishes.ts';

const SKIN = '/api/portrait/effects/smart-skin-advanced';
let e: TestEngine;
let photo: Buffer;
let before: RasterImage;
let face: Face;
let fw: number;
let human: HumanLike;

beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
  // A PNG, so the checks see the retouch, not JPEG noise in the input.
  photo = await sharp(fixture('obama_official_portrait.jpg')).png().toBuffer();
  before = await raw(photo);
  human = await new ModelRegistry({ threads: 1 }).get<HumanLike>('human');
  [face] = await detectFaces(human, before);
  fw = meshFaceWidth(face.mesh!);
});
afterAll(async () => { await e.close(); });

async function raw(bytes: Buffer): Promise<RasterImage> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

async function submit(image: Buffer, fields: Record<string, string>) {
  const r = await post(e, SKIN, form({ image, ...fields }));
  expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
  expect(r.body.task_id).toMatch(/^[a-f0-9]{32}$/);
  return pollTask(e, r.body.task_id, 120_000);
}

async function retouched(image: Buffer, fields: Record<string, string> = {}): Promise<RasterImage> {
  const done = await submit(image, fields);
  expect(done.body.task_status).toBe(2);
  expect(done.body.error_detail.code).toBe('');
  expect(done.body.data.result_urls).toHaveLength(1);
  const file = await get(e, new URL(done.body.data.result_urls[0]).pathname, {});
  expect(file.status).toBe(200);
  const out = await raw(file.body as Buffer);
  expect([out.width, out.height]).toEqual([before.width, before.height]);
  return out;
}

/** Mean Lab over a disc. */
function labAt(img: RasterImage, cx: number, cy: number, r: number): [number, number, number] {
  const s = [0, 0, 0], lab = [0, 0, 0];
  let n = 0;
  for (let y = Math.round(cy - r); y <= cy + r; y++) for (let x = Math.round(cx - r); x <= cx + r; x++) {
    if (Math.hypot(x - cx, y - cy) > r) continue;
    const i = (y * img.width + x) * 3;
    rgbToLab(img.data[i], img.data[i + 1], img.data[i + 2], lab);
    s[0] += lab[0]; s[1] += lab[1]; s[2] += lab[2]; n++;
  }
  return [s[0] / n, s[1] / n, s[2] / n];
}

/** Mean squared luma difference of neighbours over a box: the finest texture's energy. */
function texture(img: RasterImage, cx: number, cy: number, half: number): number {
  const l = (x: number, y: number) => { const i = (y * img.width + x) * 3; return 0.299 * img.data[i] + 0.587 * img.data[i + 1] + 0.114 * img.data[i + 2]; };
  let s = 0, n = 0;
  for (let y = Math.round(cy - half); y < cy + half; y++) for (let x = Math.round(cx - half); x < cx + half; x++) { s += (l(x + 1, y) - l(x, y)) ** 2 + (l(x, y + 1) - l(x, y)) ** 2; n++; }
  return s / n;
}

/** Largest channel difference over a box. */
function maxDiff(a: RasterImage, b: RasterImage, x0: number, y0: number, w: number, h: number): number {
  let m = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) for (let c = 0; c < 3; c++) {
    const i = (y * a.width + x) * 3 + c;
    m = Math.max(m, Math.abs(a.data[i] - b.data[i]));
  }
  return m;
}

const pt = (i: number) => face.mesh![i];
const mid = (i: number, j: number, t = 0.5): [number, number] => [pt(i)[0] + (pt(j)[0] - pt(i)[0]) * t, pt(i)[1] + (pt(j)[1] - pt(i)[1]) * t];

/** Renders Gaussian blemishes (sigma s px) into a copy of the photo: each adds (dr, dg, db) at its peak. */
async function withBlemishes(spots: { at: [number, number]; s: number; d: [number, number, number] }[]): Promise<Buffer> {
  const out = Buffer.from(before.data);
  for (const { at: [cx, cy], s, d } of spots) {
    for (let y = Math.round(cy - 3 * s); y <= cy + 3 * s; y++) for (let x = Math.round(cx - 3 * s); x <= cx + 3 * s; x++) {
      const g = Math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * s * s)), i = (y * before.width + x) * 3;
      for (let c = 0; c < 3; c++) out[i + c] = Math.max(0, Math.min(255, Math.round(out[i + c] + g * d[c])));
    }
  }
  return sharp(out, { raw: { width: before.width, height: before.height, channels: 3 } }).png().toBuffer();
}

describe('smart-skin-advanced', () => {
  it('with no flag retouches as smart_skin (rule 2); smart_skin=1 ignores the other flags (rule 1)', async () => {
    const none = await retouched(photo);
    const smart = await retouched(photo, { smart_skin: '1', skin_brightening: '1', pore_control: '1' });
    expect(none.data.equals(smart.data)).toBe(true);
    // And it is a retouch: a single other flag gives something else.
    const one = await retouched(photo, { skin_brightening: '1' });
    expect(one.data.equals(none.data)).toBe(false);
  });

  it('smart_skin smooths the cheeks, keeps the eyes sharp and leaves everything but the skin as it was', async () => {
    const out = await retouched(photo, { smart_skin: '1' });
    for (const c of [mid(205, 1, 0.3), mid(425, 1, 0.3)]) expect(texture(out, c[0], c[1], 12)).toBeLessThan(0.8 * texture(before, c[0], c[1], 12));
    // The eye opening itself: lashes, lid lines and the iris keep their detail.
    const eye = mid(33, 133);
    expect(texture(out, eye[0], eye[1], 8)).toBeGreaterThan(0.85 * texture(before, eye[0], eye[1], 8));
    // Flags, window, suit and tie: only JPEG 97's re-encoding, a few levels.
    for (const [x, y] of [[20, 20], [800, 100], [100, 900], [430, 1000]]) expect(maxDiff(before, out, x, y, 40, 40)).toBeLessThanOrEqual(6);
  });

  it('acne_removal heals red bumps, spot_correction dark spots, each from the skin around', async () => {
    const mm = pixelsPerMm(face.mesh!, fw);
    // Upper cheeks (101, 330) and mid-forehead (above 151, 337, which lie at the brows' upper edge: a spot
    // touching a brow is part of it to the skin mask): skin well away from features. Bumps ~3 mm across.
    const red = [pt(101), pt(330)].map((p) => ({ at: [p[0], p[1]] as [number, number], s: 0.8 * mm, d: [18, -14, -10] as [number, number, number] }));
    const dark = [pt(151), pt(337)].map((p) => ({ at: [p[0], p[1] - 0.06 * fw] as [number, number], s: 0.8 * mm, d: [-40, -40, -36] as [number, number, number] }));
    const marked = await withBlemishes([...red, ...dark]);
    const input = await raw(marked);
    const acne = await retouched(marked, { acne_removal: '1' });
    for (const { at } of red) {
      const [, a0] = labAt(before, at[0], at[1], mm), [, a1] = labAt(input, at[0], at[1], mm), [, a2] = labAt(acne, at[0], at[1], mm);
      expect(a1 - a0).toBeGreaterThan(8);
      expect(Math.abs(a2 - a0)).toBeLessThan(0.3 * (a1 - a0));
    }
    // acne_removal alone leaves the dark spots where they are.
    for (const { at } of dark) expect(labAt(acne, at[0], at[1], mm)[0]).toBeLessThan(labAt(before, at[0], at[1], mm)[0] - 8);
    const spots = await retouched(marked, { spot_correction: '1' });
    for (const { at } of dark) {
      const l0 = labAt(before, at[0], at[1], mm)[0], l1 = labAt(input, at[0], at[1], mm)[0], l2 = labAt(spots, at[0], at[1], mm)[0];
      expect(l0 - l1).toBeGreaterThan(10);
      expect(Math.abs(l2 - l0)).toBeLessThan(0.3 * (l0 - l1));
    }
    // Healed, not smeared: the grain inside a healed spot is kept (pores come from the donor skin).
    const c = red[0].at;
    expect(texture(acne, c[0], c[1], 2 * mm)).toBeGreaterThan(0.4 * texture(before, c[0], c[1], 2 * mm));
  });

  it('under_eye_correction lifts dark circles toward the skin around and changes nothing else', async () => {
    // Dark, bluish circles rendered under both eyes (below the lower lids, 145 and 374).
    const under = [145, 374].map((i) => [pt(i)[0], pt(i)[1] + 0.06 * fw] as [number, number]);
    const marked = await withBlemishes(under.map((at) => ({ at, s: 0.03 * fw, d: [-28, -24, -14] as [number, number, number] })));
    const input = await raw(marked);
    const out = await retouched(marked, { under_eye_correction: '1' });
    for (const [x, y] of under) {
      const l0 = labAt(before, x, y, 0.015 * fw)[0], l1 = labAt(input, x, y, 0.015 * fw)[0], l2 = labAt(out, x, y, 0.015 * fw)[0];
      expect(l0 - l1).toBeGreaterThan(8);
      expect(l2).toBeGreaterThan(l1 + 0.35 * (l0 - l1));
      expect(l2).toBeLessThan(l0 + 4);
    }
    // The cheek below and the forehead are not under-eyes.
    for (const i of [205, 151]) expect(maxDiff(input, out, Math.round(pt(i)[0]), Math.round(pt(i)[1]), 8, 8)).toBeLessThanOrEqual(4); // JPEG 97's re-encoding
  });

  it('retouches every face of a group photo', async () => {
    const left = await sharp(fixture('obama_official_portrait.jpg')).resize({ height: 800 }).toBuffer();
    const astronaut = await sharp(fixture('astronaut_eileen_collins.png')).resize({ height: 512 }).removeAlpha().toBuffer();
    const lw = (await sharp(left).metadata()).width!;
    const pair = await sharp({ create: { width: lw + 512, height: 800, channels: 3, background: '#808080' } })
      .composite([{ input: left, left: 0, top: 0 }, { input: astronaut, left: lw, top: 144 }]).png().toBuffer();
    const a = await raw(pair);
    const done = await submit(pair, { skin_brightening: '1' });
    const out = await raw((await get(e, new URL(done.body.data.result_urls[0]).pathname, {})).body as Buffer);
    const faces = await detectFaces(human, a, { maxFaces: 5 });
    expect(faces.length).toBe(2);
    for (const f of faces) {
      const m = f.mesh!, c = [(m[205][0] + m[1][0]) / 2, (m[205][1] + m[1][1]) / 2];
      expect(labAt(out, c[0], c[1], 6)[0]).toBeGreaterThan(labAt(a, c[0], c[1], 6)[0] + 2);
    }
  });

  it('ends a task on a photo without a face as 422 ERROR_NO_FACE_IN_FILE', async () => {
    const done = await submit(fixture('product_coffee_cup.png'), {});
    expect(done.status).toBe(422);
    expect(done.body.task_status).toBe(2);
    expect(done.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
  });

  it.each([['acne_removal', '2'], ['smart_skin', 'yes'], ['pore_control', '-1'], ['scar_reduction', '0.5']])('answers 400 naming %s for %s', async (field, value) => {
    const r = await post(e, SKIN, form({ image: photo, [field]: value }));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
    expect(r.body.error_detail.message).toContain(field);
    expect(r.body.error_detail.message).toContain('0 or 1');
  });
});
