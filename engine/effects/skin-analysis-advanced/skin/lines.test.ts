/** Lines and folds (ridges, the line rules, the nasolabial band) on planes whose answer is known by construction. */
import { describe, expect, it } from 'vitest';
import { FINE_LINES, FOLD, RIDGE_SIGMAS } from '../tuning.ts';
import { FACE_MM, type P2 } from './frame.ts';
import { coreOf, foldSearch, lateralReach, spreadIn, withFurrows } from './lines.ts';
import { CREASE_SHARPNESS, findLines, floorBeside, foldShape, ridgeField } from './ridges.ts';
import { flat, H, ones, W, withLine } from './test-planes.ts';
import { faceMm, nasolabialPolygon } from './zones.ts';

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
