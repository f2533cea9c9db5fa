/** Smart crop over real HTTP, on public-domain portraits and the CC0 coffee cup (engine/test/fixtures). */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, form, get, post, startTestEngine, waitReady, type TestEngine } from '../../test/helpers.ts';
import type { XywhRect } from '../../../contract/rectangles.ts';

const CROP = '/api/image/editing/image-cropping';
let e: TestEngine;

beforeAll(async () => { e = await startTestEngine(); await waitReady(e); });
afterAll(async () => { await e.close(); });

// Hand-drawn on the fixtures (checked by eye): hairline to chin and cheek to cheek; the head with its hair.
const OBAMA = { width: 910, height: 1137, face: { x: 370, y: 120, width: 240, height: 295 }, head: { x: 340, y: 30, width: 300, height: 385 } };
const ASTRONAUT_FACE = { x: 175, y: 65, width: 100, height: 115 }; // 512x512, upright
// The same face in astronaut_rot90cw.png (turned 90 degrees clockwise): top of the head to the right.
const TURNED_FACE = { x: 512 - (65 + 115), y: 175, width: 115, height: 100 };

const inside = (b: XywhRect, w: XywhRect) => b.x >= w.x && b.y >= w.y && b.x + b.width <= w.x + w.width && b.y + b.height <= w.y + w.height;

async function crop(file: string, width: number | string, height: number | string) {
  const r = await post(e, CROP, form({ image: fixture(file), width: String(width), height: String(height) }, file));
  expect(r.status, JSON.stringify(r.body.error_detail)).toBe(200);
  const loc = r.body.data.retain_location as XywhRect;
  const res = await get(e, new URL(r.body.data.url).pathname, {});
  expect(res.status).toBe(200);
  return { loc, image: res.body as Buffer, type: res.headers.get('content-type') };
}

/** The window is whole pixels, inside the image, and of the target aspect within rounding. */
function expectWindow(loc: XywhRect, image: { width: number; height: number }, target: { width: number; height: number }) {
  for (const v of Object.values(loc)) expect(Number.isInteger(v)).toBe(true);
  expect(Object.keys(loc).sort()).toEqual(['height', 'width', 'x', 'y']);
  expect(loc.x).toBeGreaterThanOrEqual(0);
  expect(loc.y).toBeGreaterThanOrEqual(0);
  expect(loc.x + loc.width).toBeLessThanOrEqual(image.width);
  expect(loc.y + loc.height).toBeLessThanOrEqual(image.height);
  const aspect = target.width / target.height;
  // The largest window: one side spans the image, the other is that side times the aspect, rounded.
  if (image.width / image.height > aspect) {
    expect(loc.height).toBe(image.height);
    expect(Math.abs(loc.width - loc.height * aspect)).toBeLessThanOrEqual(0.5);
  } else {
    expect(loc.width).toBe(image.width);
    expect(Math.abs(loc.height - loc.width / aspect)).toBeLessThanOrEqual(0.5);
  }
}

describe('image-cropping on a portrait', () => {
  const targets = [[400, 400], [640, 360], [360, 640], [512, 640], [1, 1], [37, 1999], [4096, 4096], [4096, 16]];

  it.each(targets)('%i x %i: exact output size, a window of that aspect, the face inside', async (width, height) => {
    const { loc, image, type } = await crop('obama_official_portrait.jpg', width, height);
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([width, height]);
    expect(type).toBe('image/jpeg');
    expectWindow(loc, OBAMA, { width, height });
    // A window narrower or shorter than the face (37 x 1999, 4096 x 16) cannot hold it; every other one does.
    if (loc.width >= OBAMA.face.width && loc.height >= OBAMA.face.height) expect(inside(OBAMA.face, loc)).toBe(true);
    else expect(loc.x <= OBAMA.face.x + OBAMA.face.width && loc.x + loc.width >= OBAMA.face.x).toBe(true);
  });

  it('keeps the whole head, with room above it, in a landscape crop', async () => {
    const { loc } = await crop('obama_official_portrait.jpg', 1600, 900);
    expect(inside(OBAMA.head, loc)).toBe(true);
    // Eyes (about y = 215) in the upper half, near the upper third.
    const eyes = (215 - loc.y) / loc.height;
    expect(eyes).toBeGreaterThan(0.2);
    expect(eyes).toBeLessThan(0.45);
  });

  it('returns the pixels of retain_location, scaled', async () => {
    const { loc, image } = await crop('obama_official_portrait.jpg', 300, 200);
    const got = await sharp(image).raw().toBuffer();
    const meanDiff = async (window: XywhRect) => {
      const want = await sharp(fixture('obama_official_portrait.jpg')).extract({ left: window.x, top: window.y, width: window.width, height: window.height })
        .resize(300, 200, { fit: 'fill' }).raw().toBuffer();
      let d = 0;
      for (let i = 0; i < got.length; i++) d += Math.abs(got[i] - want[i]);
      return d / got.length;
    };
    const same = await meanDiff(loc);
    expect(same).toBeLessThan(3);
    // The window 20 pixels further down would not match: the check can tell them apart.
    expect(loc.y + 20 + loc.height).toBeLessThanOrEqual(OBAMA.height);
    expect(await meanDiff({ ...loc, y: loc.y + 20 })).toBeGreaterThan(same + 5);
  });

  it('frames an EXIF-rotated upload like the upright photo', async () => {
    const upright = await crop('obama_official_portrait.jpg', 640, 360);
    const exif = await crop('obama_official_exif_orientation6.jpg', 640, 360);
    expect(Math.abs(exif.loc.x - upright.loc.x)).toBeLessThanOrEqual(4);
    expect(Math.abs(exif.loc.y - upright.loc.y)).toBeLessThanOrEqual(4);
    expect([exif.loc.width, exif.loc.height]).toEqual([upright.loc.width, upright.loc.height]);
  });

  it('finds a face turned on its side and keeps the head, hair included', async () => {
    const { loc } = await crop('astronaut_rot90cw.png', 360, 640);
    expectWindow(loc, { width: 512, height: 512 }, { width: 360, height: 640 });
    expect(inside(TURNED_FACE, loc)).toBe(true);
    // The hair lies to the right of the face, up to about x = 497.
    expect(loc.x + loc.width).toBeGreaterThanOrEqual(490);
  });

  it('keeps an upright face in a narrow crop', async () => {
    const { loc, image } = await crop('astronaut_eileen_collins.png', 90, 160);
    expect(inside(ASTRONAUT_FACE, loc)).toBe(true);
    expect((await sharp(image).metadata()).width).toBe(90);
  });
});

describe('image-cropping without faces', () => {
  it('keeps the salient object (cup and saucer) in a square and a tall crop', async () => {
    const square = await crop('product_coffee_cup.png', 500, 500);
    expectWindow(square.loc, { width: 600, height: 400 }, { width: 1, height: 1 });
    // The saucer spans about x 120..460 and stays whole.
    expect(square.loc.x).toBeLessThanOrEqual(120);
    expect(square.loc.x + square.loc.width).toBeGreaterThanOrEqual(460);
    const tall = await crop('product_coffee_cup.png', 90, 160);
    // Cup body about x 220..380.
    expect(tall.loc.x).toBeLessThanOrEqual(220);
    expect(tall.loc.x + tall.loc.width).toBeGreaterThanOrEqual(380);
  });

  it('keeps transparency as PNG', async () => {
    const rgba = await sharp({ create: { width: 300, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
      .composite([{ input: { create: { width: 60, height: 60, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } }, left: 220, top: 70 }])
      .png().toBuffer();
    const r = await post(e, CROP, form({ image: rgba, width: '100', height: '100' }, 'square.png'));
    expect(r.status).toBe(200);
    const loc = r.body.data.retain_location as XywhRect;
    expect(inside({ x: 220, y: 70, width: 60, height: 60 }, loc)).toBe(true);
    const out = await get(e, new URL(r.body.data.url).pathname, {});
    expect(out.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(out.body as Buffer).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([100, 100, true]);
  });
});

describe('image-cropping validation', () => {
  const expectError = (r: { status: number; body: any }, code: string, field: string) => {
    expect(r.status).toBe(400);
    expect(r.body.error_detail.code).toBe(code);
    expect(r.body.error_detail.message).toContain(field);
  };
  const photo = () => fixture('astronaut_eileen_collins.png');

  it('names a missing width or height', async () => {
    expectError(await post(e, CROP, form({ image: photo(), height: '100' }, 'a.png')), 'MISSING_PARAMETERS', 'width');
    expectError(await post(e, CROP, form({ image: photo(), width: '100' }, 'a.png')), 'MISSING_PARAMETERS', 'height');
  });

  it('refuses sizes outside 1..4096 and values that are not whole numbers', async () => {
    for (const height of ['0', '5000', '-3', '4097']) {
      expectError(await post(e, CROP, form({ image: photo(), width: '100', height }, 'a.png')), 'ERROR_INVALID_PARAMETER', 'height');
    }
    for (const width of ['abc', '12.5', '']) {
      const r = await post(e, CROP, form({ image: photo(), width, height: '100' }, 'a.png'));
      expect(r.status, width).toBe(400);
      expect(r.body.error_detail.message).toContain('width');
    }
  });
});
