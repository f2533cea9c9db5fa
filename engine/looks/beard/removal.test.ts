import { describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import { restoreLips } from './lips.ts';
import { removeBeard, type BeardPlanes } from './removal.ts';
import { removalTuning } from './tuning.ts';

/**
 * A chin lit from above (lightness falling 40 levels top to bottom) and rounded (a light bump at the box's
 * middle, which the skin around the box cannot tell of), fine skin grain, and stubble (dark dots 2 px wide
 * every 5 px) over a box in its middle; the face 250 px wide.
 */
function stubbledChin() {
  const w = 320, h = 320, fw = 250;
  const clean = Buffer.alloc(w * h * 3), stubbled = Buffer.alloc(w * h * 3);
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const inBox = (x: number, y: number) => x >= 110 && x < 210 && y >= 110 && y < 230;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const shade = 200 - (40 * y) / h + 30 * Math.exp(-((x - 160) ** 2 + (y - 170) ** 2) / (2 * 25 ** 2)) + 6 * (rand() - 0.5);
    const j = (y * w + x) * 3;
    clean[j] = shade; clean[j + 1] = shade * 0.78; clean[j + 2] = shade * 0.66;
    const hair = inBox(x, y) && x % 5 < 2 && y % 5 < 2;
    for (let c = 0; c < 3; c++) stubbled[j + c] = hair ? clean[j + c] * 0.45 : clean[j + c];
  }
  const beard = new Float32Array(w * h), skin = new Float32Array(w * h), zone = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    beard[i] = inBox(x, y) ? 1 : 0;
    const near = x >= 95 && x < 225 && y >= 95 && y < 245;
    zone[i] = near ? 1 : 0;
    skin[i] = near ? 0 : 1;
  }
  const planes: BeardPlanes = { win: { x0: 0, y0: 0, w, h }, faceWidth: fw, beard, skin, zone };
  return { w, h, clean, stubbled, planes };
}

/** Mean green over a rectangle. */
function meanG(data: Buffer, w: number, x0: number, y0: number, x1: number, y1: number) {
  let s = 0, k = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { s += data[(y * w + x) * 3 + 1]; k++; }
  return s / k;
}

/** Mean red over a rectangle. */
function mean(data: Buffer, w: number, x0: number, y0: number, x1: number, y1: number) {
  let s = 0, k = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { s += data[(y * w + x) * 3]; k++; }
  return s / k;
}

describe('removeBeard', () => {
  it('fills stubble from the skin between the hairs, keeping the chin\'s modelling', () => {
    const { w, h, clean, stubbled, planes } = stubbledChin();
    const run = (tuning: Partial<typeof removalTuning>) => {
      const saved = { ...removalTuning };
      Object.assign(removalTuning, tuning);
      try {
        const img: RasterImage = { data: Buffer.from(stubbled), width: w, height: h, channels: 3 };
        expect(removeBeard(img, planes)).not.toBeNull();
        return img.data;
      } finally { Object.assign(removalTuning, saved); }
    };
    const shaved = run({}), flat = run({ skinLow: 0 });
    // The chin's modelling: its lit middle against the box's top and bottom edges (the same lightness on
    // average), clean and after removal.
    const bump = (d: Buffer) => mean(d, w, 150, 160, 170, 180) - (mean(d, w, 120, 112, 200, 122) + mean(d, w, 120, 218, 200, 228)) / 2;
    const cleanBump = bump(clean);
    expect(cleanBump).toBeGreaterThan(15);
    expect(Math.abs(bump(shaved) - cleanBump)).toBeLessThan(0.1 * cleanBump);
    // ... which the fill's own low band, evened toward the skin around, flattens (26.3 clean: 25.9 kept,
    // 21.4 from the fill's).
    expect(bump(shaved)).toBeGreaterThan(bump(flat) + 0.1 * cleanBump);
    // The hairs are gone: each former hair pixel back within 20 levels of the clean skin.
    let worst = 0;
    for (let y = 115; y < 225; y++) for (let x = 115; x < 205; x++) {
      if (!(x % 5 < 2 && y % 5 < 2)) continue;
      worst = Math.max(worst, Math.abs(shaved[(y * w + x) * 3] - clean[(y * w + x) * 3]));
    }
    expect(worst).toBeLessThan(20);
  });

  it('fills a dense beard with the skin around it, keeping the jaw\'s edge against the neck', () => {
    // A face lit from above over its outline (y < 150) and the neck in its shadow below; a dense beard (dark
    // hair, no skin between) over a box across the outline; the face 200 px wide.
    const w = 240, h = 240, fw = 200, jaw = 150;
    const clean = Buffer.alloc(w * h * 3), bearded = Buffer.alloc(w * h * 3);
    let seed = 3;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const inBox = (x: number, y: number) => x >= 60 && x < 180 && y >= 100 && y < 172;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const shade = (y < jaw ? 200 - (30 * y) / h : 110) + 4 * (rand() - 0.5);
      const j = (y * w + x) * 3;
      clean[j] = shade; clean[j + 1] = shade * 0.78; clean[j + 2] = shade * 0.66;
      const hair = 45 + 25 * rand();
      for (let c = 0; c < 3; c++) bearded[j + c] = inBox(x, y) ? hair * (1 - 0.1 * c) : clean[j + c];
    }
    const n = w * h;
    const beard = new Float32Array(n), skin = new Float32Array(n), zone = new Float32Array(n), inside = new Float32Array(n), bare = new Float32Array(n).fill(1);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      beard[i] = inBox(x, y) ? 1 : 0;
      const near = x >= 50 && x < 190 && y >= 90 && y < 182;
      zone[i] = near ? 1 : 0;
      skin[i] = near ? 0 : 1;
      inside[i] = y < jaw ? 1 : 0;
    }
    const img: RasterImage = { data: Buffer.from(bearded), width: w, height: h, channels: 3 };
    expect(removeBeard(img, { win: { x0: 0, y0: 0, w, h }, faceWidth: fw, beard, skin, zone, dense: true, inside, bare })).not.toBeNull();
    const shaved = img.data;
    // The hair is gone: the box back near the clean skin on each side of the jaw (hair was 100+ levels off).
    expect(Math.abs(mean(shaved, w, 70, 110, 170, 144) - mean(clean, w, 70, 110, 170, 144))).toBeLessThan(12);
    expect(Math.abs(mean(shaved, w, 70, 156, 170, 168) - mean(clean, w, 70, 156, 170, 168))).toBeLessThan(12);
    // The jaw's edge is a step still, not a ramp smoothed across it.
    const step = (d: Buffer) => mean(d, w, 70, jaw - 6, 170, jaw - 2) - mean(d, w, 70, jaw + 2, 170, jaw + 6);
    expect(step(shaved)).toBeGreaterThan(0.7 * step(clean));
    // Smooth: no blotch, the box's rows as even as the clean skin's.
    let worst = 0;
    for (let y = 110; y < 144; y += 4) worst = Math.max(worst, Math.abs(mean(shaved, w, 70, y, 120, y + 4) - mean(shaved, w, 120, y, 170, y + 4)));
    expect(worst).toBeLessThan(6);
  });

  it('keeps the lips as a wall and takes a moustache off the upper lip, restoring it from the lip that shows', () => {
    // Skin, a mouth (upper lip, opening, lower lip) and a dense dark moustache over the upper lip's top rows
    // (100-104) and the skin above it; rows 105-111 of the upper lip show; the face 180 px wide.
    const w = 200, h = 200, fw = 180;
    const SKIN = [200, 156, 132], LIP = [190, 95, 92], OPEN = [60, 30, 30];
    const upper = (x: number, y: number) => x >= 60 && x < 140 && y >= 100 && y < 112;
    const opening = (x: number, y: number) => x >= 60 && x < 140 && y >= 112 && y < 118;
    const lower = (x: number, y: number) => x >= 60 && x < 140 && y >= 118 && y < 128;
    const moustache = (x: number, y: number) => x >= 50 && x < 150 && y >= 76 && y < 105;
    let seed = 5;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const data = Buffer.alloc(w * h * 3);
    const n = w * h;
    const beard = new Float32Array(n), skin = new Float32Array(n), zone = new Float32Array(n), bare = new Float32Array(n);
    const lips = { upper: new Float32Array(n), lower: new Float32Array(n), opening: new Float32Array(n) };
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x, j = i * 3;
      const base = moustache(x, y) ? [55 + 20 * rand(), 42 + 15 * rand(), 34 + 10 * rand()] : upper(x, y) || lower(x, y) ? LIP : opening(x, y) ? OPEN : SKIN;
      for (let c = 0; c < 3; c++) data[j + c] = Math.round(base[c] + (moustache(x, y) ? 0 : 3 * (rand() - 0.5)));
      const mouth = upper(x, y) || lower(x, y) || opening(x, y);
      lips.upper[i] = upper(x, y) ? 1 : 0; lips.lower[i] = lower(x, y) ? 1 : 0; lips.opening[i] = opening(x, y) ? 1 : 0;
      bare[i] = mouth ? 0 : 1;
      // The mask stops at the lips' outline (the mesh's lips are cut out of the beard zone).
      beard[i] = moustache(x, y) && !mouth ? 1 : 0;
      const near = x >= 40 && x < 160 && y >= 66 && y < 135;
      zone[i] = near && !mouth ? 1 : 0;
      skin[i] = near ? 0 : 1;
    }
    const run = (withLips: boolean) => {
      const img: RasterImage = { data: Buffer.from(data), width: w, height: h, channels: 3 };
      expect(removeBeard(img, { win: { x0: 0, y0: 0, w, h }, faceWidth: fw, beard, skin, zone, dense: true, bare, inside: new Float32Array(n).fill(1), lips: withLips ? lips : undefined })).not.toBeNull();
      return img.data;
    };
    const shaved = run(true), walled = run(false);
    // Redness (R - G) over a rectangle: the lip 95, the skin 44, the moustache about 13.
    const redness = (d: Buffer, x0: number, y0: number, x1: number, y1: number) => mean(d, w, x0, y0, x1, y1) - meanG(d, w, x0, y0, x1, y1);
    // The moustache over the skin is gone: skin-coloured again.
    expect(Math.abs(redness(shaved, 70, 82, 130, 96) - (SKIN[0] - SKIN[1]))).toBeLessThan(12);
    expect(Math.abs(mean(shaved, w, 70, 82, 130, 96) - SKIN[0])).toBeLessThan(15);
    // The fill never crosses into the lips: the hair-covered upper lip is not skin ...
    expect(redness(walled, 70, 101, 130, 104)).toBeLessThan(30);
    // ... and is restored from the same lip's pixels that show: its colour, as light as it.
    expect(redness(shaved, 70, 101, 130, 104)).toBeGreaterThan(0.8 * (LIP[0] - LIP[1]));
    expect(Math.abs(mean(shaved, w, 70, 101, 130, 104) - LIP[0])).toBeLessThan(20);
    // The lip that showed keeps its exact bytes below the restored rows, the mouth's opening and the lower lip
    // too (a few pixels in from the outline's corners, where the lip meets the skin through a blur).
    for (let y = 107; y < 126; y++) for (let x = 64; x < 136; x++) {
      const j = (y * w + x) * 3;
      expect([shaved[j], shaved[j + 1], shaved[j + 2]]).toEqual([data[j], data[j + 1], data[j + 2]]);
    }
  });

  it('leaves an upper lip darker and browner than the lower one as the person\'s own, and meets its outline with skin, no rim', () => {
    // Lab planes, a face 150 px wide: rows 0-20 skin the fill replaced; row 21 the wall between the fill and
    // the lips' outline (the mesh's lips grown by a pixel), still dark hair; rows 22-31 the upper lip, dark brown (as on dark skin, whose
    // upper lip is often browner and darker than the lower), with a fine grain; rows 32-34 the opening;
    // rows 35-44 the lower lip, pink.
    const w = 60, h = 50, fw = 150, n = w * h;
    const SKIN = [62, 14, 16], HAIR = [22, 4, 6], UPPER = [32, 12, 13], LOWER = [55, 27, 12], OPEN = [15, 8, 4];
    const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
    const filled = new Float32Array(n), alpha = new Float32Array(n);
    const lips = { upper: new Float32Array(n), lower: new Float32Array(n), opening: new Float32Array(n) };
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const inLips = x >= 10 && x < 50;
      const lab = y < 22 || !inLips ? (y < 21 ? SKIN : HAIR) : y < 32 ? UPPER : y < 35 ? OPEN : y < 45 ? LOWER : SKIN;
      for (let c = 0; c < 3; c++) planes[c][i] = lab[c] + (c === 0 && inLips && y >= 22 && y < 32 ? 2 * Math.sin(x * 1.7 + y * 0.9) : 0);
      if (inLips) { lips.upper[i] = y >= 22 && y < 32 ? 1 : 0; lips.opening[i] = y >= 32 && y < 35 ? 1 : 0; lips.lower[i] = y >= 35 && y < 45 ? 1 : 0; }
      filled[i] = y < 21 || (!inLips && y < 45) ? 1 : 0;
      alpha[i] = filled[i];
    }
    const out = planes.map((p, c) => Float32Array.from(p, (v, i) => (filled[i] ? SKIN[c] : v)));
    restoreLips(planes, out, alpha, filled, lips, { x0: 0, y0: 0, w, h }, fw, SKIN[1]);
    const shown = (x: number, y: number, c: number) => { const i = y * w + x; return planes[c][i] + alpha[i] * (out[c][i] - planes[c][i]); };
    // The upper lip inside its outline is the person's own: not painted in the lower lip's colour.
    for (let y = 24; y < 30; y++) for (let x = 14; x < 46; x++) for (let c = 0; c < 3; c++) expect(Math.abs(shown(x, y, c) - planes[c][y * w + x])).toBeLessThan(1);
    // The hair left in the wall above it is skin now, with no dark rim between the fill and the lip.
    expect(shown(30, 21, 0)).toBeGreaterThan(SKIN[0] - 6);
    for (let y = 18; y < 24; y++) expect(shown(30, y, 0)).toBeGreaterThan(UPPER[0] - 3);
    // The opening and the lower lip are left alone.
    for (let y = 32; y < 45; y++) for (let x = 14; x < 46; x++) expect(alpha[y * w + x]).toBe(0);
  });
});
