/** The skin kernels on planes whose answer is known by construction. */
import { describe, expect, it } from 'vitest';
import { toLab } from '../../../image/colour.ts';
import { coreOf, fades, FINE_LINES, finer, FOLD, foldSearch, fromAgeScale, grows, lateralReach, lesionKind, lesionPlane, refinedSpot, RIDGE_SIGMAS, SKIN_AGE_RANGE, skinAgeOf, spreadIn, toAgeScale, withFurrows } from './analyse.ts';
import { findBlobs, measureBlob, type Blob, type LabFrame } from './blobs.ts';
import { along } from './eyes.ts';
import { FACE_MM, irisDiameter, pixelsPerMm, resamplePlane, type P2 } from './frame.ts';
import { gauss, zoneSpans } from '../../../image/gauss.ts';
import { darkCircle, HAEMOGLOBIN, itaClass, itaOf, MELANIN, nth, pigments } from './pigment.ts';
import { CREASE_SHARPNESS, findLines, floorBeside, foldShape, ridgeField } from './ridges.ts';
import { shineMap, skinType } from './shine.ts';
import { renderSynthetic } from './synthetic.ts';
import { faceMm, nasolabialPolygon, nearestUp } from './zones.ts';

const W = 120, H = 100;
const flat = (v = 60) => new Float32Array(W * H).fill(v);
const ones = () => new Float32Array(W * H).fill(1);
/** A flat plane with a dark horizontal line of Gaussian profile (depth, σ px) from x0 to x1 at row y. */
function withLine(depth: number, sigma: number, y: number, x0: number, x1: number) {
  const p = flat();
  for (let yy = 0; yy < H; yy++) for (let x = x0; x < x1; x++) p[yy * W + x] -= depth * Math.exp(-((yy - y) ** 2) / (2 * sigma * sigma));
  return p;
}
function labOf(L: Float32Array, a = new Float32Array(W * H).fill(12), b = new Float32Array(W * H).fill(15)): LabFrame { return { L, a, b, w: W, h: H }; }

describe('gauss', () => {
  it('keeps the mean and spreads an impulse by σ', () => {
    const p = new Float32Array(W * H); p[50 * W + 60] = 1;
    const g = gauss(p, W, H, 1.2);
    expect(g.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 3);
    let v = 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) v += (x - 60) ** 2 * g[y * W + x];
    expect(Math.sqrt(v)).toBeGreaterThan(1.1); expect(Math.sqrt(v)).toBeLessThan(1.3);
  });

  it('gives exactly the whole plane\'s values within row spans (a disc near the edge, grown)', () => {
    const p = new Float32Array(W * H).map((_, i) => 50 + 20 * Math.sin(i * 0.37) * Math.cos(i * 0.011));
    const zone = new Float32Array(W * H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - 8, y - 60) < 25) zone[y * W + x] = 1;
    const spans = zoneSpans(zone, W, H, 2);
    expect(spans.lo[60]).toBe(0);
    expect(spans.hi[60]).toBe(8 + 24 + 2);
    expect(spans.hi[10]).toBeLessThan(spans.lo[10]); // no zone within 2 rows
    for (const sigma of [0.7, 1.5, 2.2]) {
      const all = gauss(p, W, H, sigma), part = gauss(p, W, H, sigma, spans);
      let inside = 0;
      for (let y = 0; y < H; y++) for (let x = spans.lo[y]; x <= spans.hi[y]; x++) { expect(part[y * W + x]).toBe(all[y * W + x]); inside++; }
      expect(inside).toBeGreaterThan(1000);
    }
  });

  // The explicit kernel tap by tap, one pixel at a time (rows then columns, each sum in double in tap
  // order, the edges clamped): gauss computes four pixels and two column taps a sweep, which changes no
  // addition, so it matches to the bit on random data, across the edge cases of small planes.
  it.each([[37, 29, 0.7], [37, 29, 1.4], [41, 23, 2.3], [5, 9, 1.1], [9, 4, 2], [1, 6, 0.9]])('equals a tap-by-tap reference to the bit on random data (%i x %i, σ %f)', (w, h, sigma) => {
    let seed = w * 977 + h;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const p = new Float32Array(w * h).map(() => 100 * rand());
    const r = Math.ceil(3 * sigma), k = new Float32Array(2 * r + 1);
    let sum = 0;
    for (let i = -r; i <= r; i++) { k[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma)); sum += k[i + r]; }
    for (let i = 0; i < k.length; i++) k[i] /= sum;
    const cl = (v: number, n: number) => (v < 0 ? 0 : v >= n ? n - 1 : v);
    const tmp = new Float32Array(w * h), want = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { let s = 0; for (let i = -r; i <= r; i++) s += k[i + r] * p[y * w + cl(x + i, w)]; tmp[y * w + x] = s; }
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) { let s = 0; for (let i = -r; i <= r; i++) s += k[i + r] * tmp[cl(y + i, h) * w + x]; want[y * w + x] = s; }
    expect(gauss(p, w, h, sigma)).toEqual(want);
    const zone = new Float32Array(w * h).map(() => (rand() < 0.3 ? 1 : 0)), spans = zoneSpans(zone, w, h, 1);
    const part = gauss(p, w, h, sigma, spans);
    for (let y = 0; y < h; y++) for (let x = Math.max(0, spans.lo[y]); x <= Math.min(w - 1, spans.hi[y]); x++) expect(part[y * w + x]).toBe(want[y * w + x]);
  });
});

describe('nearestUp', () => {
  it('gives every pixel its grid cell\'s value (a small zone, an empty one)', () => {
    const zw = 23, zh = 17, w = 50, h = 39;
    const p = new Float32Array(zw * zh);
    for (let y = 5; y < 9; y++) for (let x = 12; x < 20; x++) p[y * zw + x] = (x * 7 + y * 3) % 5 / 4;
    const xs = Int32Array.from({ length: w }, (_, x) => Math.min(zw - 1, Math.floor(((x + 0.5) * zw) / w)));
    const ys = Int32Array.from({ length: h }, (_, y) => Math.min(zh - 1, Math.floor(((y + 0.5) * zh) / h)));
    const v = nearestUp(p, zw, zh, xs, ys, w, h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(v[y * w + x]).toBe(p[ys[y] * zw + xs[x]]);
    expect(nearestUp(new Float32Array(zw * zh), zw, zh, xs, ys, w, h).every((x) => x === 0)).toBe(true);
  });
});

describe('ridges', () => {
  it("reads a dark line's depth in L* at its matched scale and its direction", () => {
    const f = ridgeField(withLine(10, 2, 50, 20, 100), W, H, [1, 2, 4]);
    expect(f.depth[50 * W + 60]).toBeGreaterThan(8.5);
    expect(f.depth[50 * W + 60]).toBeLessThan(11.5);
    expect(Math.abs(f.angle[50 * W + 60])).toBeLessThan(0.05); // horizontal
    expect(f.depth[20 * W + 60]).toBeLessThan(0.5);
  });
  it('finds the line as one run of its length in mm, only in the expected direction', () => {
    const f = ridgeField(withLine(10, 2, 50, 20, 100), W, H, [2]);
    const lines = findLines(f, { zone: ones(), minDepth: 3, direction: 0, tolerance: Math.PI / 8, s: 4 });
    expect(lines).toHaveLength(1);
    expect(lines[0].length).toBeGreaterThan(17); // 80 px = 20 mm at 4 px/mm, less the faded ends
    expect(lines[0].length).toBeLessThan(22);
    expect(findLines(f, { zone: ones(), minDepth: 3, direction: Math.PI / 2, tolerance: Math.PI / 8, s: 4 })).toHaveLength(0);
  });
  it("reads a broad furrow at the fold scales in a zone's core, not at its edge, where the fine scales miss it", () => {
    const s = 2, zone = new Float32Array(W * H);
    for (let y = 20; y < 90; y++) for (let x = 10; x < 110; x++) zone[y * W + x] = 1;
    const { core } = coreOf(zone, W, H, s);
    expect(core[55 * W + 60]).toBe(1);
    expect(core[22 * W + 60]).toBe(0); // within the fold scale's reach of the edge (a dark edge just outside, row 18, is not read)
    const query = { zone, minDepth: 3, direction: 0, tolerance: Math.PI / 8, s };
    for (const [y, found] of [[55, 1], [18, 0]] as const) {
      const L = withLine(10, 4, y, 20, 100); // 2 mm σ: a furrow, not a fine line
      const fine = ridgeField(L, W, H, RIDGE_SIGMAS.fine.map((v) => v * s)), coarse = ridgeField(L, W, H, RIDGE_SIGMAS.coarse.map((v) => v * s));
      expect(findLines(fine, query)).toHaveLength(0);
      const lines = findLines(withFurrows(fine, 3, coarse, zone, 3, W, H, s), query);
      expect(lines, `furrow at row ${y}`).toHaveLength(found);
      if (found) expect(lines[0].length).toBeGreaterThan(30); // 80 px = 40 mm at 2 px/mm, less the faded ends
    }
  });
  it('reads a narrow crease as sharp and a broad soft shade as not, whatever their depth (4 px/mm)', () => {
    const s = 4, scales = { fine: RIDGE_SIGMAS.fine[0] * s, broad: RIDGE_SIGMAS.coarse[1] * s };
    const shapeOf = (L: Float32Array) => {
      const f = ridgeField(L, W, H, [scales.fine, scales.broad]);
      const [line] = findLines(f, { zone: ones(), minDepth: 3, direction: 0, tolerance: Math.PI / 8, s });
      return foldShape(L, W, H, line, f.depth, scales);
    };
    const crease = shapeOf(withLine(6, 0.3 * s, 50, 10, 110)), shade = shapeOf(withLine(14, 3 * s, 50, 10, 110));
    expect(crease.sharpness).toBeGreaterThan(2 * CREASE_SHARPNESS); // 2.9 in theory
    expect(shade.sharpness).toBeLessThan(0.2 * CREASE_SHARPNESS); // 0.03 in theory
    expect(crease.spine).toBeGreaterThan(90);
  });
  it("reads a fold's edge-and-roll cross-section as asymmetric and a round shade as not", () => {
    const s = 4, scales = { fine: RIDGE_SIGMAS.fine[0] * s, broad: RIDGE_SIGMAS.coarse[1] * s };
    const fold = flat(), shade = withLine(10, 2 * s, 50, 0, W);
    // An edge 0.3 mm wide above the crease, a roll 2 mm wide below it.
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) fold[y * W + x] -= 10 * Math.exp(-((y - 50) ** 2) / (2 * (y < 50 ? 0.3 * s : 2 * s) ** 2));
    const shapeOf = (L: Float32Array) => {
      const f = ridgeField(L, W, H, [scales.fine, RIDGE_SIGMAS.coarse[0] * s, scales.broad]);
      const [line] = findLines(f, { zone: ones(), minDepth: 3, direction: 0, tolerance: Math.PI / 8, s });
      return foldShape(L, W, H, line, f.depth, scales);
    };
    expect(shapeOf(fold).asymmetry).toBeGreaterThan(0.5);
    expect(shapeOf(shade).asymmetry).toBeLessThan(0.1);
  });
  it("reads a fold that fills half its band above the band's floor (the fold itself left out), and ripples all over the band below it", () => {
    // An 8 mm band at 2 px/mm (rows 42-57) with a 1.2 mm-σ fold 8 L* deep along its middle.
    const s = 2, band = new Float32Array(W * H);
    for (let y = 42; y < 58; y++) for (let x = 10; x < 110; x++) band[y * W + x] = 1;
    const L = withLine(8, 1.2 * s, 50, 0, W);
    const coarse = ridgeField(L, W, H, RIDGE_SIGMAS.coarse.map((v) => v * s));
    let inFold = 0, inBand = 0;
    for (let i = 0; i < band.length; i++) if (band[i]) { inBand++; if (coarse.depth[i] > 4) inFold++; }
    expect(inFold / inBand).toBeGreaterThan(0.4); // 7 of its 16 rows
    // Over the whole band, three robust spreads are the fold's own depth: it would hide it.
    expect(FINE_LINES.noise * spreadIn(coarse.depth, band)).toBeGreaterThan(coarse.depth[50 * W + 60]);
    const { floor, direction } = foldSearch(coarse, band, 0.3, 4, 14, W, s);
    expect(floor).toBeLessThan(4);
    expect(Math.abs(direction)).toBeLessThan(0.05); // the line found, not the 0.3 rad it was looked for at
    const lines = findLines(coarse, { zone: band, minDepth: Math.max(4, floor), direction, tolerance: Math.PI / 8, s });
    expect(lines[0].length).toBeGreaterThan(40); // 100 px = 50 mm
    // Ripples 4 px apart over the whole band: with the strongest left out, the others still set the floor.
    const ripples = flat();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) ripples[y * W + x] -= 6 * (0.5 + 0.5 * Math.cos((2 * Math.PI * y) / (2.4 * s)));
    const rf = ridgeField(ripples, W, H, [1.2 * s]);
    const strongest = findLines(rf, { zone: band, minDepth: 0.5, direction: 0, tolerance: Math.PI / 8, s })[0];
    const rippleFloor = floorBeside(rf.depth, band, W, strongest, FOLD.margin * s, FOLD.quantile, FOLD.over);
    expect(rippleFloor).toBeGreaterThan(rf.depth[50 * W + 60]);
  });
  it("reads a fold running down and out past the mouth corner as lateral, and the lip's edge along the wing-to-corner course as not", () => {
    // The right side: wing (129) at (60, 20), mouth corner (61) at (60, 80), the cheek (234) to the left; 2 px per face-mm.
    const mesh = Array.from({ length: 478 }, () => [0, 0] as P2);
    mesh[129] = [60, 20]; mesh[61] = [60, 80]; mesh[234] = [0, 50];
    const reach = (xAt: (y: number) => number) => {
      const L = flat();
      for (let y = 15; y < 85; y++) for (let x = 0; x < W; x++) L[y * W + x] -= 8 * Math.exp(-((x - xAt(y)) ** 2) / (2 * 2 * 2));
      const f = ridgeField(L, W, H, [2, 4]);
      const [line] = findLines(f, { zone: ones(), minDepth: 4, direction: Math.PI / 2, tolerance: Math.PI / 4, s: 2 });
      return lateralReach(line, mesh, 'right', f.depth, W, 2);
    };
    // On the course: about 0. From 1 face-mm out at the wing to 9 out at the corner: 8 or so (90th percentile).
    expect(Math.abs(reach(() => 60))).toBeLessThan(1);
    expect(reach((y) => 58 - ((y - 20) / 60) * 16)).toBeGreaterThan(6);
    expect(reach((y) => 58 - ((y - 20) / 60) * 16)).toBeGreaterThan(FOLD.lateral);
    // Toward the lips (medial of the course) reads negative.
    expect(reach(() => 66)).toBeLessThan(-2);
  });
  it('draws the nasolabial band in the face\'s own proportions (its cheek-to-cheek width in 3D)', () => {
    const mesh = Array.from({ length: 478 }, () => [0, 0, 0]);
    mesh[234] = [0, 50, 0]; mesh[454] = [2 * FACE_MM, 50, 0]; mesh[129] = [120, 60, 0]; mesh[358] = [160, 60, 0]; mesh[61] = [110, 110, 0]; mesh[291] = [170, 110, 0];
    mesh[168] = [140, 40, 0]; mesh[152] = [140, 200, 0];
    expect(faceMm(mesh)).toBeCloseTo(2, 6);
    // Turned: the same width foreshortened in x, kept in depth.
    expect(faceMm(mesh.map((p, i) => (i === 454 ? [FACE_MM, 50, Math.sqrt(3) * FACE_MM] : p)))).toBeCloseTo(2, 6);
    const xs = (k: number) => nasolabialPolygon(mesh.map((p) => [p[0], p[1]] as P2), 'right', k).map((p) => p[0]);
    const width = (k: number) => Math.max(...xs(k)) - Math.min(...xs(k));
    expect(width(3)).toBeGreaterThan(width(2)); // a wider face-mm, a wider band
  });
  it('does not take a round spot for a line', () => {
    const p = flat();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) p[y * W + x] -= 10 * Math.exp(-((x - 60) ** 2 + (y - 50) ** 2) / 8);
    expect(ridgeField(p, W, H, [2]).depth[50 * W + 60]).toBeLessThan(2);
  });
});

describe('blobs', () => {
  const spot = (contrast: number, r: number, cx = 60, cy = 50) => {
    const p = flat();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - cx, y - cy) <= r) p[y * W + x] += contrast;
    return p;
  };
  it('finds a dark disc where it is, about its size, round, with its contrast', () => {
    const found = findBlobs(labOf(spot(-12, 5)), { radii: [2, 3, 4, 5.5, 7.5], polarity: 'dark', minResponse: 1, zone: ones() });
    expect(found).toHaveLength(1);
    const [b] = found;
    expect(Math.hypot(b.x - 60, b.y - 50)).toBeLessThanOrEqual(1);
    expect(b.r).toBeGreaterThanOrEqual(3); expect(b.r).toBeLessThanOrEqual(7.5);
    expect(b.dL).toBeLessThan(-8);
    expect(b.roundness).toBeGreaterThan(0.8);
  });
  it('finds a bright bump only when looking for bright ones, and nothing on flat skin', () => {
    const q = { radii: [2, 3, 4], minResponse: 1, zone: ones() };
    expect(findBlobs(labOf(spot(8, 3)), { ...q, polarity: 'bright' })).toHaveLength(1);
    expect(findBlobs(labOf(spot(8, 3)), { ...q, polarity: 'dark' })).toHaveLength(0);
    expect(findBlobs(labOf(flat()), { ...q, polarity: 'dark' })).toHaveLength(0);
  });
  it("raises the bar with the skin's own texture (noise)", () => {
    const p = spot(-4, 3);
    let seed = 7; const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < p.length; i++) p[i] += (rnd() - 0.5) * 12;
    const q = { radii: [2, 3, 4], minResponse: 0.5, zone: ones(), polarity: 'dark' as const };
    expect(findBlobs(labOf(p), { ...q, noise: 3 }).length).toBeLessThan(findBlobs(labOf(p), q).length);
  });
  it('reads a bump as alone on even skin, not the skin left beside a dark disc', () => {
    const p = spot(6, 2, 30, 50);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - 84, y - 50) <= 5) p[y * W + x] -= 20;
    const q = { radii: [1.5, 2, 3], minResponse: 1, zone: ones(), polarity: 'bright' as const };
    const found = findBlobs(labOf(p), q);
    const bump = found.find((b) => Math.hypot(b.x - 30, b.y - 50) <= 1)!;
    expect(bump.isolation).toBeGreaterThan(0.7);
    expect(bump.roundness).toBeGreaterThan(0.8);
    const gap = measureBlob(labOf(p), ones(), 76, 50, 2, 1)!;
    expect(gap.isolation).toBeLessThan(0.3);
  });
  it('measures the outline on the plane searched (a red bump barely changes L*)', () => {
    const L = flat(), a = new Float32Array(W * H).fill(12);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) { const d = Math.hypot(x - 60, y - 50); if (d <= 4) { a[y * W + x] += 9; L[y * W + x] -= 1; } }
    let seed = 3; const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < L.length; i++) L[i] += (rnd() - 0.5) * 2;
    const lab = labOf(L, a), plane = new Float32Array(W * H).map((_, i) => L[i] - 1.5 * a[i]);
    const [b] = findBlobs(lab, { radii: [2, 3, 4, 5.5], polarity: 'dark', minResponse: 1, zone: ones(), detect: plane });
    expect(b.da).toBeGreaterThan(6);
    expect(b.roundness).toBeGreaterThan(0.8);
  });
  it('measures a wide dark blob again at finer radii at its centre (finer): a soft spot read over a wider disc is too pale', () => {
    const s = 1.4, L = flat(), b = new Float32Array(W * H).fill(15);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const p = 1 / (1 + Math.exp((Math.hypot(x - 60, y - 50) / s - 1.5) / 0.35));
      L[y * W + x] -= 9 * p; b[y * W + x] += 6 * p;
    }
    const lab = labOf(L, undefined, b), plane = lesionPlane(lab);
    const wide = measureBlob(lab, ones(), 60, 50, 2.8 * s, 5, plane)!;
    expect(lesionKind(wide, s)).toBeNull();
    const fine = finer(lab, ones(), plane, wide, s);
    expect(fine.map((m) => m.r / s)).toEqual([2, 1.4]);
    expect(fine[1].dL).toBeLessThan(wide.dL - 2);
    expect(lesionKind(fine[1], s)).toBe('skin_spot');
    const still = { shine: 0, grain: 1, redGrain: 0 };
    expect(refinedSpot(fine[1], 'skin_spot', still)).toBe(true);
    // Kept only as a spot, clear of the grain, and yellower than the skin (a grey shade of the same depth is not pigment).
    expect(refinedSpot(fine[1], 'skin_spot', { ...still, grain: 3 })).toBe(false);
    expect(refinedSpot({ ...fine[1], db: 0 }, 'skin_spot', still)).toBe(false);
    expect(finer(lab, ones(), plane, measureBlob(lab, ones(), 60, 50, 1 * s, 5, plane)!, s)).toEqual([]);
  });
  it('measures a weaker overlapping blob too when asked for two layers (another scale of the same place)', () => {
    const L = flat();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) L[y * W + x] -= 10 * Math.exp(-((x - 60) ** 2 + (y - 50) ** 2) / 72) + 20 * Math.exp(-((x - 66) ** 2 + (y - 50) ** 2) / 4.5);
    const q = { radii: [2, 2.8, 4, 5.6, 8, 11], polarity: 'dark' as const, minResponse: 1, zone: ones() };
    expect(findBlobs(labOf(L), q)).toHaveLength(1);
    const two = findBlobs(labOf(L), { ...q, layers: 2 });
    expect(two).toHaveLength(2);
    expect(two[0].r).not.toBe(two[1].r);
  });
  it('takes a noise multiple per radius', () => {
    const L = flat();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (Math.hypot(x - 60, y - 50) <= 6) L[y * W + x] -= 6;
    let seed = 5; const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < L.length; i++) L[i] += (rnd() - 0.5) * 6;
    const q = { radii: [6], polarity: 'dark' as const, minResponse: 0.5, zone: ones() };
    expect(findBlobs(labOf(L), { ...q, noise: [1000] })).toHaveLength(0);
    expect(findBlobs(labOf(L), { ...q, noise: [3] }).some((b) => Math.hypot(b.x - 60, b.y - 50) < 3)).toBe(true);
  });
  it('classifies lesions by colour, darkness, roundness and edge (sizes in mm at 3 px/mm)', () => {
    const b = (o: Partial<Blob>): Blob => ({ x: 0, y: 0, r: 3, dL: 0, da: 0, db: 0, roundness: 0.9, edge: 0.5, response: 5, isolation: 1, ...o });
    expect(lesionKind(b({ da: 8, dL: -3 }), 3)).toBe('acne');
    expect(lesionKind(b({ dL: -20, da: 1, edge: 0.6 }), 3)).toBe('mole');
    expect(lesionKind(b({ dL: -7, db: 3, r: 4 }), 3)).toBe('skin_spot');
    expect(lesionKind(b({ dL: -7, db: -3, r: 4 }), 3)).toBeNull(); // bluish: a shadow, not pigment
    expect(lesionKind(b({ dL: -7, db: 3, r: 4 }), 3, { shine: 0, grain: 6, redGrain: 0 })).toBeNull(); // stubble's grain, not pigment
    expect(lesionKind(b({ dL: 6, r: 2 }), 3)).toBe('closed_comedones');
    expect(lesionKind(b({ dL: 6, r: 2 }), 3, { shine: 0.5, grain: 1, redGrain: 0 })).toBeNull(); // a glint among glints
    expect(lesionKind(b({ dL: 6, r: 2 }), 3, { shine: 0, grain: 4, redGrain: 0 })).toBeNull(); // no more than the skin's grain
    expect(lesionKind(b({ da: 8, dL: -3 }), 3, { shine: 0, grain: 1, redGrain: 1 })).toBe('acne');
    expect(lesionKind(b({ da: 8, dL: -3 }), 3, { shine: 0, grain: 1, redGrain: 4 })).toBeNull(); // colour grain, not a red bump
    expect(lesionKind(b({ dL: -2 }), 3)).toBeNull();
  });
});

describe('pigment', () => {
  it('separates a melanin change from a haemoglobin change and from shading', () => {
    const base = [180, 130, 110];
    const shift = (dir: readonly number[], k: number) => base.map((v, i) => {
      const lin = ((v / 255 + 0.055) / 1.055) ** 2.4 * Math.exp(-k * dir[i]);
      return Math.round(255 * (1.055 * lin ** (1 / 2.4) - 0.055));
    });
    const px = new Uint8Array([...base, ...shift(MELANIN, 0.5), ...shift(HAEMOGLOBIN, 0.5), ...shift([1, 1, 1], 0.5)]);
    const p = pigments(px, 4);
    // The two directions are close, so byte rounding moves the other density by up to ~0.1.
    expect(p.melanin[1] - p.melanin[0]).toBeGreaterThan(0.4);
    expect(Math.abs(p.haemoglobin[1] - p.haemoglobin[0])).toBeLessThan(0.1);
    expect(p.haemoglobin[2] - p.haemoglobin[0]).toBeGreaterThan(0.4);
    expect(Math.abs(p.melanin[2] - p.melanin[0])).toBeLessThan(0.1);
    expect(p.shading[3] - p.shading[0]).toBeGreaterThan(0.4);
    expect(Math.abs(p.melanin[3] - p.melanin[0]) + Math.abs(p.haemoglobin[3] - p.haemoglobin[0])).toBeLessThan(0.15);
  });
  it('selects the k-th smallest as a sort would, duplicates and all', () => {
    let seed = 11; const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const v = Float32Array.from({ length: 1001 }, () => Math.round(rnd() * 40) / 4);
    const sorted = Float32Array.from(v).sort();
    for (const k of [0, 1, 250, 500, 999, 1000]) expect(nth(Float32Array.from(v), k)).toBe(sorted[k]);
  });
  it('puts ITA° into the five classes', () => {
    expect(itaOf(70, 10)).toBeCloseTo(63.43, 1);
    expect([60, 45, 35, 20, 0, -40].map(itaClass)).toEqual([0, 1, 2, 3, 4, 4]);
  });
  it('types dark circles by the density that darkens most', () => {
    const cheek = { L: 60, m: 1, h: 1, s: 1 };
    expect(darkCircle({ L: 59, m: 1.2, h: 1, s: 1 }, cheek).type).toBe(0);
    expect(darkCircle({ L: 54, m: 1.4, h: 1.05, s: 1 }, cheek).type).toBe(1);
    expect(darkCircle({ L: 54, m: 1, h: 1.5, s: 1.05 }, cheek).type).toBe(2);
    expect(darkCircle({ L: 54, m: 1.02, h: 1, s: 1.3 }, cheek).type).toBe(3);
  });
});

describe('shine and skin type', () => {
  it('marks a pale highlight, not a darker or more coloured patch', () => {
    const L = flat(), a = new Float32Array(W * H).fill(14), b = new Float32Array(W * H).fill(18);
    for (let y = 45; y < 55; y++) for (let x = 30; x < 40; x++) { const i = y * W + x; L[i] = 78; a[i] = 6; b[i] = 8; }
    for (let y = 45; y < 55; y++) for (let x = 80; x < 90; x++) { const i = y * W + x; L[i] = 50; a[i] = 20; }
    const s = shineMap({ L, a, b, w: W, h: H }, 3);
    expect(s[50 * W + 35]).toBeGreaterThan(0.8);
    expect(s[50 * W + 85]).toBe(0);
    expect(s[10 * W + 10]).toBe(0);
  });
  it('tells oily, dry, neutral and combination apart', () => {
    expect(skinType(0.08, 0.06, 1.5).type).toBe(0);
    expect(skinType(0.005, 0.004, 3.5).type).toBe(1);
    expect(skinType(0.005, 0.004, 1.2).type).toBe(2);
    expect(skinType(0.08, 0.004, 1.5).type).toBe(3);
  });
});

describe('frame, eyes, confidences, skin age', () => {
  it('takes the scale from the iris and falls back to the face width when the iris is implausible', () => {
    const mesh = Array.from({ length: 478 }, () => [0, 0, 0]);
    mesh[234] = [100, 200, 0]; mesh[454] = [380, 200, 0]; // 280 px face: 2 px/mm
    const iris = (c: number, x: number, r: number) => { mesh[c] = [x, 150, 0]; [[r, 0], [0, -r], [-r, 0], [0, r]].forEach(([dx, dy], k) => { mesh[c + 1 + k] = [x + dx, 150 + dy, 0]; }); };
    iris(468, 180, 12); iris(473, 300, 12);
    expect(irisDiameter(mesh)).toBeCloseTo(24, 5);
    expect(pixelsPerMm(mesh).pxPerMm).toBeCloseTo(24 / 11.7, 5);
    iris(468, 180, 40); iris(473, 300, 40);
    expect(pixelsPerMm(mesh).pxPerMm).toBeCloseTo(2, 5);
  });
  it('resamples planes and walks polylines', () => {
    const p = new Float32Array([0, 1, 0, 1]);
    expect(Array.from(resamplePlane(p, 2, 2, 4, 4)).every((v) => v >= 0 && v <= 1)).toBe(true);
    expect(along([[0, 0], [10, 0], [10, 10]], 0.75)).toEqual([10, 5]);
  });
  it('makes confidences 0.5 at a threshold and larger with the margin, either way', () => {
    expect(grows(10, 10)).toBeCloseTo(0.5);
    expect(grows(30, 10)).toBeGreaterThan(grows(15, 10));
    expect(fades(0, 10)).toBe(1);
    expect(fades(2, 10)).toBeGreaterThan(fades(8, 10));
  });
  it('ages skin with more lines and spots', () => {
    expect(skinAgeOf([0, 0, 0, 0, 0, 0, 0])).toBeLessThan(skinAgeOf([6, 2, 0.05, 2, 5, 1, 0]));
    expect(skinAgeOf([0, 0, 0, 0, 0, 0, -20])).toBeLessThan(skinAgeOf([0, 0, 0, 0, 0, 0, 0])); // a child's narrower face
    expect(skinAgeOf([100, 0, 100, 100, 100, 100, 0])).toBe(SKIN_AGE_RANGE[1]);
  });
  it('reads a child\'s smooth skin and narrow face as a child\'s age, below the clamp a model in years had', () => {
    // No lines or spots, cheek texture 0.15 L*, a face 20 mm short of an adult's (fit-half children: 114-127 mm).
    expect(skinAgeOf([0, 3, 0, 1.4, 0, 0.15, -20])).toBeLessThan(10);
  });
  it('fits and reads the age on the model\'s scale, ln at power 0', () => {
    for (const power of [0, 0.5, 1]) expect(fromAgeScale(toAgeScale(37, power), power)).toBeCloseTo(37, 6);
    expect(skinAgeOf([1], { power: 0, intercept: Math.log(20), weights: [Math.log(2)] })).toBe(40);
  });
});

describe('synthetic findings', () => {
  it('render where asked with the Lab change asked for', () => {
    const img = { data: Buffer.alloc(W * H * 3), width: W, height: H, channels: 3 as const };
    for (let i = 0; i < W * H; i++) img.data.set([190, 140, 120], i * 3);
    const out = renderSynthetic(img, [{ kind: 'mole', x: 40, y: 50, size: 2 }, { kind: 'acne', x: 90, y: 50, size: 2 }], 3);
    const lab = toLab({ data: out.data, width: W, height: H, channels: 3 }), before = toLab({ data: img.data, width: W, height: H, channels: 3 });
    const i = 50 * W + 40, j = 50 * W + 90;
    expect(lab.L[i] - before.L[i]).toBeCloseTo(-28, 0);
    expect(lab.a[j] - before.a[j]).toBeGreaterThan(9);
    expect(lab.L[10 * W + 10]).toBeCloseTo(before.L[10 * W + 10], 3);
  });
});
