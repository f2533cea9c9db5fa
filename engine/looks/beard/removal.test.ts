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

  it('keeps the lips as a wall and gives a moustache-covered upper lip the visible lip\'s colour', () => {
    // Skin, a mouth (upper lip, opening, lower lip) and a dense dark moustache over the upper lip's top rows
    // and the skin above it; the face 180 px wide.
    const w = 200, h = 200, fw = 180;
    const SKIN = [200, 156, 132], LIP = [190, 95, 92], OPEN = [60, 30, 30];
    const upper = (x: number, y: number) => x >= 60 && x < 140 && y >= 104 && y < 112;
    const opening = (x: number, y: number) => x >= 60 && x < 140 && y >= 112 && y < 118;
    const lower = (x: number, y: number) => x >= 60 && x < 140 && y >= 118 && y < 128;
    const moustache = (x: number, y: number) => x >= 50 && x < 150 && y >= 80 && y < 109;
    let seed = 5;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    const data = Buffer.alloc(w * h * 3);
    const n = w * h;
    const beard = new Float32Array(n), skin = new Float32Array(n), zone = new Float32Array(n), bare = new Float32Array(n), vermilion = new Float32Array(n);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x, j = i * 3;
      const base = moustache(x, y) ? [55 + 20 * rand(), 42 + 15 * rand(), 34 + 10 * rand()] : upper(x, y) || lower(x, y) ? LIP : opening(x, y) ? OPEN : SKIN;
      for (let c = 0; c < 3; c++) data[j + c] = Math.round(base[c] + (moustache(x, y) ? 0 : 3 * (rand() - 0.5)));
      const lip = upper(x, y) || lower(x, y), mouth = lip || opening(x, y);
      vermilion[i] = lip ? 1 : 0;
      bare[i] = mouth ? 0 : 1;
      // The mask stops at the lips' outline (the mesh's lips are cut out of the beard zone).
      beard[i] = moustache(x, y) && !mouth ? 1 : 0;
      const near = x >= 40 && x < 160 && y >= 70 && y < 135;
      zone[i] = near && !mouth ? 1 : 0;
      skin[i] = near ? 0 : 1;
    }
    const run = (withLips: boolean) => {
      const img: RasterImage = { data: Buffer.from(data), width: w, height: h, channels: 3 };
      expect(removeBeard(img, { win: { x0: 0, y0: 0, w, h }, faceWidth: fw, beard, skin, zone, dense: true, bare, inside: new Float32Array(n).fill(1), vermilion: withLips ? vermilion : undefined })).not.toBeNull();
      return img.data;
    };
    const shaved = run(true), walled = run(false);
    // Redness (R - G) over a rectangle: the lip 95, the skin 44, the moustache about 13.
    const redness = (d: Buffer, x0: number, y0: number, x1: number, y1: number) => mean(d, w, x0, y0, x1, y1) - meanG(d, w, x0, y0, x1, y1);
    // The moustache over the skin is gone: skin-coloured again.
    expect(Math.abs(redness(shaved, 70, 85, 130, 100) - (SKIN[0] - SKIN[1]))).toBeLessThan(12);
    expect(Math.abs(mean(shaved, w, 70, 85, 130, 100) - SKIN[0])).toBeLessThan(15);
    // The fill never crosses into the lips: the hair-covered upper lip is not skin ...
    expect(redness(walled, 70, 105, 130, 109)).toBeLessThan(30);
    // ... and takes the visible lip's colour, as light as it.
    expect(redness(shaved, 70, 105, 130, 109)).toBeGreaterThan(0.8 * (LIP[0] - LIP[1]));
    expect(Math.abs(mean(shaved, w, 70, 105, 130, 109) - LIP[0])).toBeLessThan(20);
    // The lips that showed keep their exact bytes, the mouth's opening too.
    for (let y = 109; y < 128; y++) for (let x = 60; x < 140; x++) {
      const j = (y * w + x) * 3;
      expect([shaved[j], shaved[j + 1], shaved[j + 2]]).toEqual([data[j], data[j + 1], data[j + 2]]);
    }
  });

  it('restores a hair-covered upper lip a little darker than the visible lip\'s median, feathered into the skin fill', () => {
    // Lab planes, a face 150 px wide: rows 0-19 skin the fill replaced; rows 20-29 the upper lip under dark
    // hair, its top row the outline's soft edge (vermilion 0.5); rows 30-39 the lower lip that shows, lit
    // from below (L* 48 at its top to 66 at its bottom, its median 57).
    const w = 40, h = 40, fw = 150, n = w * h;
    const SKIN = [62, 14, 16], HAIR = [28, 8, 10];
    const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
    const filled = new Float32Array(n), vermilion = new Float32Array(n), alpha = new Float32Array(n);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const lab = y < 30 ? HAIR : [48 + (2 * (y - 30)), 26, 12];
      for (let c = 0; c < 3; c++) planes[c][i] = lab[c];
      filled[i] = y < 20 ? 1 : 0;
      vermilion[i] = y < 20 ? 0 : y === 20 ? 0.5 : 1;
      alpha[i] = filled[i];
    }
    const out = planes.map((p, c) => Float32Array.from(p, (v, i) => (filled[i] ? SKIN[c] : v)));
    restoreLips(planes, out, alpha, filled, vermilion, w, h, fw, SKIN[1]);
    // What the blend writes, down the middle column.
    const shown = (y: number, c: number) => { const i = y * w + 20; return planes[c][i] + alpha[i] * (out[c][i] - planes[c][i]); };
    // Inside, the lip's colour a little below the visible lip's median lightness (57; an upper lip faces away
    // from the light), far from its lightest rows (66) and from the hair (28).
    expect(shown(25, 0)).toBeGreaterThan(51);
    expect(shown(25, 0)).toBeLessThan(57);
    expect(Math.abs(shown(25, 1) - 26)).toBeLessThan(1.5);
    // At the outline, neither the hair nor a step: between the skin's and the lip's colour, and moving
    // from one to the other over a few pixels with no darker rim.
    for (let y = 14; y <= 26; y++) {
      expect(shown(y, 0)).toBeGreaterThan(Math.min(SKIN[0], 54) - 3);
      expect(shown(y, 1)).toBeGreaterThanOrEqual(shown(y - 1, 1) - 0.2);
    }
    expect(shown(14, 1)).toBeCloseTo(SKIN[1], 0);
    expect(shown(20, 1)).toBeGreaterThan(SKIN[1] + 2);
    expect(shown(20, 1)).toBeLessThan(26 - 2);
    // The lower lip that shows is left alone.
    for (let y = 31; y < h; y++) expect(alpha[y * w + 20]).toBe(0);
  });
});
