/** Face beauty over real HTTP, on the public-domain portraits in engine/test/fixtures. */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';

const BEAUTY = '/api/portrait/effects/face-beauty';
let e: TestEngine;
let obama: Raw;

interface Raw { data: Buffer; width: number; height: number }
const raw = async (img: Buffer): Promise<Raw> => {
  const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};

beforeAll(async () => {
  e = await startTestEngine();
  await waitReady(e);
  obama = await raw(fixture('obama_official_portrait.jpg'));
});
afterAll(async () => { await e.close(); });

/** Posts, checks the 200, fetches the result image and decodes it. */
async function beautify(image: Buffer, fields: Record<string, string> = {}): Promise<Raw> {
  const r = await post(e, BEAUTY, form({ image, ...fields }));
  expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
  expect(r.body.data.image_url).toMatch(/^http/);
  const img = await get(e, new URL(r.body.data.image_url).pathname, {});
  expect(img.status).toBe(200);
  return raw(img.body as Buffer);
}

/** Pixels of a box: luma values and mean Lab-ish chroma direction (through sharp's own Lab). */
const box = (im: Raw, x0: number, y0: number, w: number, h: number) => {
  const out: number[][] = [];
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) { const i = (y * im.width + x) * 3; out.push([im.data[i], im.data[i + 1], im.data[i + 2]]); }
  return out;
};
const luma = (p: number[]) => 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
/** Mean squared difference of luma between neighbours: the finest texture's energy. */
const texture = (im: Raw, x0: number, y0: number, w: number, h: number) => {
  let s = 0, n = 0;
  const l = (x: number, y: number) => luma(box(im, x, y, 1, 1)[0]);
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) { s += (l(x + 1, y) - l(x, y)) ** 2 + (l(x, y + 1) - l(x, y)) ** 2; n++; }
  return s / n;
};
const mean = (ps: number[][], f: (p: number[]) => number) => ps.reduce((s, p) => s + f(p), 0) / ps.length;

// The portrait's cheeks and right eye (mesh points 205, 425 and 468 of its one face).
const CHEEKS = [[405, 285], [555, 285]] as const;
const EYE = [425, 203] as const;

describe('face-beauty', () => {
  it('with every degree at 0 gives the photo back unchanged', async () => {
    const out = await beautify(fixture('obama_official_portrait.jpg'), { sharp: '0', smooth: '0', white: '0' });
    expect([out.width, out.height]).toEqual([obama.width, obama.height]);
    expect(out.data.equals(obama.data)).toBe(true);
  });

  it('by default smooths and lightens the skin and leaves the background exactly as it was', async () => {
    const out = await beautify(fixture('obama_official_portrait.jpg'));
    for (const [x, y] of CHEEKS) {
      expect(texture(out, x, y, 30, 30)).toBeLessThan(0.8 * texture(obama, x, y, 30, 30));
      expect(mean(box(out, x, y, 30, 30), luma)).toBeGreaterThan(mean(box(obama, x, y, 30, 30), luma) + 2);
    }
    // The flags and window behind him, and his suit, are not a face.
    for (const [x, y] of [[20, 20], [850, 100], [100, 900], [450, 1000]]) expect(box(out, x, y, 40, 40)).toEqual(box(obama, x, y, 40, 40));
  });

  it('smooth=1 flattens the cheeks but keeps the eye sharp', async () => {
    const out = await beautify(fixture('obama_official_portrait.jpg'), { sharp: '0', smooth: '1', white: '0' });
    for (const [x, y] of CHEEKS) expect(texture(out, x, y, 30, 30)).toBeLessThan(0.7 * texture(obama, x, y, 30, 30));
    expect(texture(out, EYE[0], EYE[1], 36, 16)).toBeGreaterThan(0.9 * texture(obama, EYE[0], EYE[1], 36, 16));
  });

  it('white=1 lightens the skin without turning its hue', async () => {
    const out = await beautify(fixture('obama_official_portrait.jpg'), { sharp: '0', smooth: '0', white: '1' });
    const hue = (ps: number[][]) => Math.atan2(mean(ps, (p) => p[1] - p[2]), mean(ps, (p) => p[0] - (p[1] + p[2]) / 2));
    for (const [x, y] of CHEEKS) {
      const a = box(obama, x, y, 30, 30), b = box(out, x, y, 30, 30);
      expect(mean(b, luma)).toBeGreaterThan(mean(a, luma) + 6);
      expect(Math.abs(hue(b) - hue(a))).toBeLessThan(0.1); // radians of the opponent-colour angle
    }
  });

  it('sharp=1 brings out the eye and leaves the cheek alone', async () => {
    const out = await beautify(fixture('obama_official_portrait.jpg'), { sharp: '1', smooth: '0', white: '0' });
    expect(texture(out, EYE[0], EYE[1], 36, 16)).toBeGreaterThan(1.3 * texture(obama, EYE[0], EYE[1], 36, 16));
    // The sharpening mask's soft edge may reach a cheek by a level or two, no more.
    for (const [x, y] of CHEEKS) {
      const a = box(obama, x, y, 30, 30), b = box(out, x, y, 30, 30);
      expect(mean(b.map((p, i) => [Math.max(...p.map((v, c) => Math.abs(v - a[i][c])))]), (d) => d[0])).toBeLessThan(1);
    }
  });

  it('sharp=1 sharpens a small face too', async () => {
    // Obama's face about 115 px wide: the band's sigma (0.004 of the face) would be under a pixel.
    const small = await sharp(fixture('obama_official_portrait.jpg')).resize({ width: 300 }).png().toBuffer();
    const [flat, sharpened] = await Promise.all([
      beautify(small, { sharp: '0', smooth: '0', white: '0' }),
      beautify(small, { sharp: '1', smooth: '0', white: '0' }),
    ]);
    let changed = 0;
    for (let i = 0; i < flat.data.length; i++) if (Math.abs(flat.data[i] - sharpened.data[i]) > 3) changed++;
    expect(changed).toBeGreaterThan(200);
  });

  it('retouches every face of a group photo', async () => {
    const left = await sharp(fixture('obama_official_portrait.jpg')).resize({ height: 800 }).toBuffer();
    const astronaut = await sharp(fixture('astronaut_eileen_collins.png')).resize({ height: 512 }).removeAlpha().toBuffer();
    const lw = (await sharp(left).metadata()).width!;
    const pair = await sharp({ create: { width: lw + 512, height: 800, channels: 3, background: '#808080' } })
      .composite([{ input: left, left: 0, top: 0 }, { input: astronaut, left: lw, top: 144 }]).png().toBuffer();
    const before = await raw(pair);
    const out = await beautify(pair, { smooth: '1', white: '1' });
    // Her left cheek (mesh point 425) in the pasted astronaut, and his right one in the scaled portrait.
    for (const [x, y] of [[lw + 245, 144 + 121], [Math.round(CHEEKS[0][0] * 800 / 1137), Math.round(CHEEKS[0][1] * 800 / 1137)]]) {
      expect(mean(box(out, x, y, 16, 16), luma)).toBeGreaterThan(mean(box(before, x, y, 16, 16), luma) + 3);
    }
  });

  it('answers 422 ERROR_NO_FACE_IN_FILE for a photo without a face', async () => {
    const r = await post(e, BEAUTY, form({ image: fixture('product_coffee_cup.png') }));
    expect(r.status).toBe(422);
    expect(r.body.error_detail.code).toBe('ERROR_NO_FACE_IN_FILE');
  });

  it.each([['smooth', '1.5'], ['white', '-0.1'], ['sharp', 'strong']])('answers 400 naming %s for %s', async (field, value) => {
    const r = await post(e, BEAUTY, form({ image: fixture('obama_official_portrait.jpg'), [field]: value }));
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
    expect(r.body.error_detail.message).toContain(field);
  });
});
