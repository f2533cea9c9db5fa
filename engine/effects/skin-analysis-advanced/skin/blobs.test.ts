/** Blobs and the lesions read from them, on planes whose answer is known by construction. */
import { describe, expect, it } from 'vitest';
import { findBlobs, measureBlob, type Blob } from './blobs.ts';
import { finer, lesionKind, lesionPlane, refinedSpot } from './lesions.ts';
import { flat, H, labOf, ones, W } from './test-planes.ts';

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
