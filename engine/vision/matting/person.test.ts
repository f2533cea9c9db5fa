import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { ModelRegistry } from '../models/registry.ts';
import { detectFaces, type Face } from '../faces/detect.ts';
import { bodyKeypoints } from '../pose/keypoints.ts';
import { applyCoefficients, guidedCoefficients } from '../../image/guided-filter.ts';
import { lumaPlane } from '../../image/luma.ts';
import { hairMask, personMatte, upscale } from './person.ts';

const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const load = async (name: string): Promise<RasterImage> => {
  const { data, info } = await sharp(path.join(fixtures, name)).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
};
/** Mean mask value (0..255) over a rectangle. */
const mean = (m: Mask, x0: number, y0: number, x1: number, y1: number) => {
  let s = 0, n = 0;
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(m.height, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(m.width, Math.round(x1)); x++) { s += m.data[y * m.width + x]; n++; }
  }
  return s / n;
};

let models: ModelRegistry;
let obama: RasterImage;
let face: Face;
let matte: Mask;

beforeAll(async () => {
  models = new ModelRegistry();
  obama = await load('obama_official_portrait.jpg');
  [face] = await detectFaces(await models.get('human'), obama);
  matte = await personMatte(models, obama);
});

describe('personMatte', () => {
  it('covers the person and not the room', () => {
    expect(matte.width).toBe(obama.width);
    expect(matte.data.length).toBe(obama.width * obama.height);
    const b = face.box;
    expect(mean(matte, b.x0, b.y0, b.x0 + b.w, b.y0 + b.h)).toBeGreaterThan(230);
    expect(mean(matte, 350, 900, 600, 1100)).toBeGreaterThan(230); // the suit
    expect(mean(matte, 0, 0, 200, 300)).toBeLessThan(25); // the flag and curtain, top left
    expect(mean(matte, 760, 0, 910, 300)).toBeLessThan(25);
  });

  it('finds no person on a product photo', async () => {
    const cup = await personMatte(models, await load('product_coffee_cup.png'));
    expect(mean(cup, 0, 0, cup.width, cup.height)).toBeLessThan(15);
  });
});

/** upscale as it was before its conversions became typed loops (Array.from with a callback). */
async function upscaleWithArrays(low: { data: Float32Array; width: number; height: number }, image: RasterImage): Promise<Mask> {
  const k = Math.min(1, 512 / Math.max(image.width, image.height));
  const gw = Math.max(1, Math.round(image.width * k)), gh = Math.max(1, Math.round(image.height * k));
  const guide = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).resize(gw, gh, { fit: 'fill' }).raw().toBuffer();
  const bytes = Buffer.from(Array.from(low.data, (v) => Math.round(Math.min(1, Math.max(0, v)) * 255)));
  const p8 = await sharp(bytes, { raw: { width: low.width, height: low.height, channels: 1 } }).resize(gw, gh, { fit: 'fill', kernel: 'cubic' }).extractChannel(0).raw().toBuffer();
  const p = Float32Array.from(p8, (v) => v / 255);
  const guideLuma = lumaPlane(guide, gw, gh, image.channels);
  const coef = guidedCoefficients(guideLuma, p, gw, gh, Math.max(2, Math.round(gw / 96)), 1e-3);
  return { data: applyCoefficients(coef, lumaPlane(image.data, image.width, image.height, image.channels), image.width, image.height), width: image.width, height: image.height };
}

describe('upscale', () => {
  it('gives, on a real matte, what the array conversions gave', async () => {
    // A low-resolution matte from the real one, pushed a little past 0..1 so the clamp is exercised.
    const lw = 144, lh = Math.round((144 * matte.height) / matte.width);
    const small = await sharp(Buffer.from(matte.data), { raw: { width: matte.width, height: matte.height, channels: 1 } }).resize(lw, lh, { fit: 'fill' }).extractChannel(0).raw().toBuffer();
    const low = { data: Float32Array.from(small, (v) => (v / 255) * 1.1 - 0.05), width: lw, height: lh };
    const got = await upscale(low, obama);
    expect(got.data.some((v) => v > 128) && got.data.some((v) => v < 128)).toBe(true);
    const want = await upscaleWithArrays(low, obama);
    expect([got.width, got.height]).toEqual([want.width, want.height]);
    expect(Buffer.from(got.data).equals(Buffer.from(want.data))).toBe(true);
  });
});

describe('hairMask', () => {
  it('finds the hair above the forehead, inside the person, and not on the face', async () => {
    const hair = await hairMask(models, obama, [face]);
    const m = face.mesh!;
    const top = m[10][1], w = face.box.w;
    // Mesh point 10 sits at the hairline: the hair is the band above it.
    expect(mean(hair, m[10][0] - 0.2 * w, top - 0.3 * w, m[10][0] + 0.2 * w, top - 0.15 * w)).toBeGreaterThan(150);
    expect(mean(hair, m[1][0] - 0.15 * w, m[1][1] - 0.15 * w, m[1][0] + 0.15 * w, m[1][1] + 0.15 * w)).toBeLessThan(10); // nose
    let outside = 0;
    for (let i = 0; i < hair.data.length; i++) if (matte.data[i] < 64) outside += hair.data[i];
    expect(outside).toBe(0);
  });

  it('has nothing to find without faces', async () => {
    const hair = await hairMask(models, obama, []);
    expect(mean(hair, 0, 0, hair.width, hair.height)).toBe(0);
  });
});

describe('bodyKeypoints', () => {
  it('gives the 17 COCO points of the person, in place', async () => {
    const k = Object.fromEntries((await bodyKeypoints(models, obama)).map((p) => [p.name, p]));
    expect(Object.keys(k)).toHaveLength(17);
    const b = face.box;
    expect(k.nose.score).toBeGreaterThan(0.4);
    expect(k.nose.x).toBeGreaterThan(b.x0); expect(k.nose.x).toBeLessThan(b.x0 + b.w);
    expect(k.nose.y).toBeGreaterThan(b.y0); expect(k.nose.y).toBeLessThan(b.y0 + b.h);
    for (const s of ['leftShoulder', 'rightShoulder']) {
      expect(k[s].score).toBeGreaterThan(0.4);
      expect(k[s].y).toBeGreaterThan(b.y0 + b.h);
    }
    // The subject's left is the image's right.
    expect(k.leftShoulder.x).toBeGreaterThan(k.rightShoulder.x);
  });
});
