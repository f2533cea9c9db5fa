/**
 * The measures behind the part attributes (part-attributes.ts): what the face parsing, the hair mask and
 * the colours say about glasses, hats, a mask, a moustache, the hair and the skin, taken in the face's own
 * frame (origin between the eyes, x across to the subject's left, y down, unit = the face's width from
 * the mesh, so numbers compare across photo sizes). Colours are CIE L*a*b* (D65, toLabInterleaved).
 *
 * Everything reads pixels the parsing already covers (its window, about 2.5 face widths square), except
 * the hair's extent, which reads the hair mask over a taller window (long hair goes past the crop).
 */
import { toLabInterleaved } from '../../../image/colour.ts';
import type { Mask } from '../../../image/mask.ts';
import type { RasterImage } from '../../../image/raster.ts';
import { faceMeshTables } from '../../../vision/models/human.ts';
import { sampleParsing, type FaceParsing, type ParsingClass, type ParsingSample } from '../../../vision/parsing/face-parsing.ts';
import { faceRegionPlanes, type RegionName } from '../../../vision/regions/face-regions.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { faceFrame } from './geometry-measures.ts';
import { CHIN, FOREHEAD_TOP } from '../../../vision/faces/landmarks.ts';
import type { Lab, PartFeatures } from './part-features.ts';
import { firstAtLeast, grainAt, hairSampler, latticeRgb, lumaAt, partsLattice } from './part-sampling.ts';
import { MOUSTACHE_GRAIN } from '../tuning.ts';

/** The mesh point mirrored across the midline, from the canonical uv map (u -> 1 - u), for the 468 points. */
let mirrorTable: Int16Array | undefined;
export function mirrorPairs(): Int16Array {
  if (mirrorTable) return mirrorTable;
  const { uv } = faceMeshTables();
  const n = Math.min(468, uv.length);
  mirrorTable = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0, bd = Infinity;
    for (let j = 0; j < n; j++) {
      const d = (uv[j][0] - (1 - uv[i][0])) ** 2 + (uv[j][1] - uv[i][1]) ** 2;
      if (d < bd) { bd = d; best = j; }
    }
    mirrorTable[i] = best;
  }
  return mirrorTable;
}

const median = (v: number[]) => {
  if (!v.length) return NaN;
  const s = Float64Array.from(v).sort();
  return s[Math.floor(s.length / 2)];
};
const mad = (v: number[]) => { const m = median(v); return median(v.map((x) => Math.abs(x - m))); };
const medianLab = (px: Lab[]): Lab => [median(px.map((p) => p[0])), median(px.map((p) => p[1])), median(px.map((p) => p[2]))];

/** Colour bins for a hat: red (and orange), yellow, blue, black, grey/white, other (green, purple, brown). */
export function colourBin([L, a, b]: Lab): number {
  const C = Math.hypot(a, b), h = ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;
  if (L < 35 && C < 20) return 3;
  if (C < 14) return 4;
  if (h < 62 || h >= 330) return L < 35 && C < 30 ? 5 : 0;
  if (h < 105) return L > 55 ? 1 : 5;
  if (h >= 200 && h < 300) return 2;
  return 5;
}

/**
 * The measures of one face from its parsing: a full one (FaceParsing), or one taken at partsLattice(win)'s
 * points only (parseFaceAt), which gives the same features for less work.
 */
/**
 * A per-point quantity (0 or more) and, when known, its support: the points where it may be above 0,
 * ascending. The measures below visit only a support's points: most of them read a small region of the window.
 */
type Field = ((i: number) => number) & { support?: Int32Array };
const within = (f: (i: number) => number, support?: Int32Array): Field => Object.assign(f, { support });

export function measureParts(face: Face, image: RasterImage, parsing: FaceParsing | ParsingSample, hair?: Mask): PartFeatures | null {
  const mesh = face.mesh;
  if (!mesh || mesh.length < 468) return null;
  const fr = faceFrame(mesh);
  const W = fr.width;
  // The image-plane frame: the mesh's across and down axes as they appear in the photo (the frame's x and y
  // projected), so a point's (u, v) holds however the head is turned in the plane.
  const o = fr.toImage([0, 0, 0]), ex = fr.toImage([1, 0, 0]), ey = fr.toImage([0, 1, 0]);
  const ax = [ex[0] - o[0], ex[1] - o[1]], ay = [ey[0] - o[0], ey[1] - o[1]];
  const det = ax[0] * ay[1] - ax[1] * ay[0] || 1;
  const local = (x: number, y: number): [number, number] => {
    const dx = x - o[0], dy = y - o[1];
    return [(dx * ay[1] - dy * ay[0]) / det, (ax[0] * dy - ax[1] * dx) / det];
  };
  const at = (i: number) => local(mesh[i][0], mesh[i][1]);
  const vTop = at(FOREHEAD_TOP)[1], vChin = at(CHIN)[1], vEar = (at(234)[1] + at(454)[1]) / 2;
  const vEye = (at(159)[1] + at(386)[1] + at(145)[1] + at(374)[1]) / 4;
  const uEye = Math.max(Math.abs(at(33)[0]), Math.abs(at(263)[0]));

  // Everything below is read at the lattice's points only: planes, colours and face coordinates are per point.
  const sample = 'at' in parsing ? parsing : sampleParsing(parsing, partsLattice(parsing.win));
  const { win, classes, at: grid } = sample;
  const nx = grid.cols.length, n = nx * grid.rows.length;
  const P = (c: ParsingClass) => classes[c];
  /** The summed probability of some classes at window pixel i, 0..1 (the planes looked up once, not per pixel). */
  const probOf = (names: ParsingClass[]) => {
    const planes = names.map(P).filter((p): p is Uint8Array => !!p);
    // One plane (most calls): read directly, no loop (0 + p[i] is p[i], so the value is the same).
    if (planes.length === 1) { const p0 = planes[0]; return (i: number) => Math.min(1, p0[i] / 255); }
    return (i: number) => { let s = 0; for (let j = 0; j < planes.length; j++) s += planes[j][i]; return Math.min(1, s / 255); };
  };
  const hairProb = probOf(['hair']), glassesProb = probOf(['glasses']), eyeProb = probOf(['leftEye', 'rightEye']);
  const faceProb = probOf(['skin', 'nose', 'upperLip', 'lowerLip', 'mouth']), mouthProb = probOf(['upperLip', 'lowerLip', 'mouth', 'nose']);
  /** a(i) x b(i), b read only where a is not 0 (b is finite everywhere); a's support. */
  const both = (a: Field, b: (i: number) => number): Field => within((i: number) => { const v = a(i); return v === 0 ? 0 : v * b(i); }, a.support);
  const lab = toLabInterleaved(latticeRgb(image, grid), 3, n);
  const labAt = (i: number): Lab => [lab[3 * i], lab[3 * i + 1], lab[3 * i + 2]];
  // Every point's face coordinates, once.
  const U = new Float32Array(n), V = new Float32Array(n);
  for (let q = 0; q < grid.rows.length; q++) for (let k = 0; k < nx; k++) {
    const dx = grid.cols[k] + 0.5 - o[0], dy = grid.rows[q] + 0.5 - o[1];
    U[q * nx + k] = (dx * ay[1] - dy * ay[0]) / det; V[q * nx + k] = (ax[0] * dy - ax[1] * dx) / det;
  }
  /** Every point, or (ascending, so sums add up in the same order) only those of a support. */
  const each = (f: (i: number) => void, support?: Int32Array) => {
    if (support) for (let j = 0; j < support.length; j++) f(support[j]);
    else for (let i = 0; i < n; i++) f(i);
  };
  const meanOver = (inside: Field, value: (i: number) => number) => {
    let s = 0, w = 0;
    each((i) => { const k = inside(i); if (k > 0) { s += k * value(i); w += k; } }, inside.support);
    return w > 0 ? s / w : NaN;
  };
  // The supports below are found by plain loops over the points (no test function called per point: with
  // tens of thousands of points per face these scans were a large share of the measures' time).
  const found = new Int32Array(n);
  /** The ascending union of supports (undefined, i.e. every point, if any is). */
  const union = (...fs: Field[]): Int32Array | undefined => {
    if (fs.some((f) => !f.support)) return undefined;
    const hit = new Uint8Array(n);
    for (const f of fs) { const sup = f.support!; for (let j = 0; j < sup.length; j++) hit[sup[j]] = 1; }
    let m = 0;
    for (let i = 0; i < n; i++) if (hit[i] === 1) found[m++] = i;
    return found.slice(0, m);
  };
  const box = (u0: number, u1: number, v0: number, v1: number): Field => {
    let m = 0;
    for (let i = 0; i < n; i++) { const u = U[i], v = V[i]; if (u >= u0 && u <= u1 && v >= v0 && v <= v1) found[m++] = i; }
    return within((i: number) => (U[i] >= u0 && U[i] <= u1 && V[i] >= v0 && V[i] <= v1 ? 1 : 0), found.slice(0, m));
  };
  const sides = (u0: number, u1: number, v0: number, v1: number): Field => {
    let m = 0;
    for (let i = 0; i < n; i++) { const u = Math.abs(U[i]), v = V[i]; if (u >= u0 && u <= u1 && v >= v0 && v <= v1) found[m++] = i; }
    return within((i: number) => (Math.abs(U[i]) >= u0 && Math.abs(U[i]) <= u1 && V[i] >= v0 && V[i] <= v1 ? 1 : 0), found.slice(0, m));
  };

  const names: RegionName[] = ['leftCheek', 'rightCheek', 'forehead', 'nose', 'chin', 'moustache', 'beard', 'leftEye', 'rightEye', 'upperLip', 'lowerLip'];
  const reg = faceRegionPlanes(face, image, undefined, names);
  // Each region at the points, read once (the measures below visit them many times), in 8-bit steps as its mask has them.
  const atPoints = new Map<RegionName, { values: Float64Array; support: Int32Array } | null>();
  const R = (name: RegionName): Field => {
    let w = atPoints.get(name);
    if (w === undefined) {
      const r = reg[name];
      w = null;
      if (r) {
        const { plane, win: rw } = r, values = new Float64Array(n), support: number[] = [];
        // Only the lattice's rows and columns inside the region's window (both ascend).
        const k0 = firstAtLeast(grid.cols, rw.x0), k1 = firstAtLeast(grid.cols, rw.x0 + rw.w);
        for (let q = firstAtLeast(grid.rows, rw.y0), q1 = firstAtLeast(grid.rows, rw.y0 + rw.h); q < q1; q++) {
          const row = (grid.rows[q] - rw.y0) * rw.w - rw.x0;
          for (let k = k0; k < k1; k++) {
            const v = plane[row + grid.cols[k]];
            if (v <= 0) continue;
            values[q * nx + k] = (v >= 1 ? 255 : Math.round(v * 255)) / 255;
            support.push(q * nx + k);
          }
        }
        w = { values, support: Int32Array.from(support) };
      }
      atPoints.set(name, w);
    }
    if (!w) return within(() => 0, new Int32Array(0));
    const arr = w.values;
    return within((i: number) => arr[i], w.support);
  };
  const any = (...fs: Field[]): Field => within((i: number) => { let m = -Infinity; for (const f of fs) { const v = f(i); if (v > m) m = v; } return m; }, union(...fs));
  const cheeks = any(R('leftCheek'), R('rightCheek'));
  const skinP = probOf(['skin']);
  const collect = (inside: Field, min = 0.5) => { const out: Lab[] = []; each((i) => { if (inside(i) >= min) out.push(labAt(i)); }, inside.support); return out; };

  // Skin: cheeks and forehead where the parser is sure of skin.
  const forehead = R('forehead');
  const skinPx = collect(within((i) => Math.max(cheeks(i), forehead(i)) * skinP(i), union(cheeks, forehead)), 0.6);
  const cheekPx = collect(both(cheeks, skinP), 0.6);
  const skinLab = medianLab(skinPx.length >= 30 ? skinPx : collect((i) => skinP(i), 0.8));
  const cheekL = cheekPx.length >= 20 ? median(cheekPx.map((p) => p[0])) : skinLab[0];
  // What a mask leaves of the cheeks and forehead (the parser does not call a mask skin) is the reference.
  const refSkin = skinLab;

  // Glasses.
  const eyes = any(R('leftEye'), R('rightEye'));
  const glassBand = meanOver(box(-uEye - 0.05, uEye + 0.05, vEye - 0.12, vEye + 0.1), glassesProb);
  const lensGlass = meanOver(eyes, glassesProb);
  const eyeSeen = meanOver(eyes, eyeProb);
  const eyePx = collect(eyes);
  const lensDark = median(eyePx.map((p) => p[0])) - skinLab[0];
  // What the lens shows around the eye (the parser's glasses away from the eye openings): skin through a
  // clear lens, the lens's own tint through a dark one. Frames are thin beside the lens area, so the median is the lens.
  const lensBand = box(-uEye - 0.05, uEye + 0.05, vEye - 0.12, vEye + 0.1);
  const lensPx = collect(within((i) => (lensBand(i) && eyes(i) < 0.5 && glassesProb(i) >= 0.5 ? 1 : 0), lensBand.support));
  const lensLab = lensPx.length >= 8 ? medianLab(lensPx) : [NaN, NaN, NaN] as Lab;
  const lensShade = lensLab[0] - skinLab[0];
  // The eye seen through the lens: the white beside the iris, so a spread of L* inside the opening (P90 - P10).
  const eyeL = eyePx.map((p) => p[0]).sort((a, b) => a - b);
  const eyeSpread = eyeL.length >= 8 ? eyeL[Math.floor(0.9 * (eyeL.length - 1))] - eyeL[Math.floor(0.1 * (eyeL.length - 1))] : NaN;

  // Hat.
  const hatP = probOf(['hat']);
  // UTKFace-style chips carry pure black fill from their alignment, which the parser takes for a hat: such pixels are left out.
  const filled = (i: number) => (lab[3 * i] > 0.5 ? 1 : 0);
  const cap = box(-0.5, 0.5, vTop - 0.45, vTop - 0.05);
  // The share of the cap the parser is sure is hat (its mean probability also counts dark hair as a third hat).
  const hatTop = meanOver(within((i) => cap(i) * filled(i), cap.support), (i) => (hatP(i) >= 0.5 ? 1 : 0));
  const hatEars = meanOver(sides(0.45, 0.75, vEye, vEar + 0.2), hatP);
  let hatWidth = 0;
  const hatPx: Lab[] = [];
  {
    // Widest extent of the hat across, per 0.05-high slice of the head.
    const lo = new Map<number, number>(), hi = new Map<number, number>();
    each((i) => {
      if (hatP(i) < 0.5 || !filled(i)) return;
      hatPx.push(labAt(i));
      const k = Math.round(V[i] / 0.05);
      lo.set(k, Math.min(lo.get(k) ?? Infinity, U[i])); hi.set(k, Math.max(hi.get(k) ?? -Infinity, U[i]));
    });
    for (const [k, a] of lo) hatWidth = Math.max(hatWidth, hi.get(k)! - a);
  }
  const hatColours = [0, 0, 0, 0, 0, 0];
  let gloss = 0;
  for (const p of hatPx) {
    hatColours[colourBin(p)]++;
    if (p[0] > 85 && Math.hypot(p[1], p[2]) < 15) gloss++;
  }
  const nh = Math.max(1, hatPx.length);
  for (let k = 0; k < 6; k++) hatColours[k] /= nh;

  // Mask: not skin-coloured (ΔE76 > 18 from the skin the parser is sure of) and either not skin/nose/lips to the parser
  // or less red than skin (a* 6 below it). The parser alone does not do: over a plain patch where a face
  // should be it still draws nose and lips (measured: a light-blue patch over nose, mouth and chin read
  // 10% / 20% / 40% covered by the parser alone). Lips are redder than skin, masks (white, blue, grey,
  // black) are not; the mouth opening (teeth) is left out.
  const covered = (i: number) => {
    const L = lab[3 * i], A = lab[3 * i + 1], B = lab[3 * i + 2];
    if (Math.hypot(L - refSkin[0], A - refSkin[1], B - refSkin[2]) <= 18) return 0;
    return A < refSkin[1] - 6 ? 1 : 1 - faceProb(i);
  };
  // A mask is smooth cloth, a beard (which passes the colour test too) is textured: the covered share is
  // weighed by how even the covered pixels' L* is (MAD below about 6).
  const cover = (region: (i: number) => number) => {
    const share = meanOver(region, covered);
    const ls = collect(both(region, covered), 0.5).map((c) => c[0]);
    return ls.length < 10 ? share : share / (1 + Math.exp((mad(ls) - 6) / 1));
  };
  const coverNose = cover(R('nose'));
  const coverMouth = cover(any(R('upperLip'), R('lowerLip')));
  const coverChin = cover(R('chin'));

  // Moustache and beard: darker and more textured than cheek skin, where the parser sees skin or hair.
  const notLips = (i: number) => 1 - mouthProb(i);
  // Not conditioned on the parser's skin: a dark moustache is sometimes nose or mouth to it.
  const moustache = R('moustache'), beard = R('beard'), vMouthTop = at(17)[1];
  // The band against skin no beard covers (forehead and nose, where the parser is sure of skin), so a
  // beard on the cheeks does not hide it, and against that skin under the photo's own light: how much
  // darker (log luma ratio) and how much grainier (hair strands; a laughing face's shadow is dark but smooth).
  const pointsOf = (inside: Field, min: number) => { const out: number[] = []; each((i) => { if (inside(i) >= min) out.push(i); }, inside.support); return out; };
  const bandPts = pointsOf(both(moustache, notLips), 0.5);
  const noseRegion = R('nose');
  const bareSkin = pointsOf(within((i) => Math.max(forehead(i), noseRegion(i)) * skinP(i), union(forehead, noseRegion)), 0.6);
  const rGrain = Math.max(1, Math.round(W * MOUSTACHE_GRAIN));
  const lumaOf = (pts: number[]) => median(pts.map((i) => lumaAt(image, grid.cols[i % nx], grid.rows[(i / nx) | 0])));
  const grainOf = (pts: number[]) => median(pts.map((i) => grainAt(image, grid.cols[i % nx], grid.rows[(i / nx) | 0], rGrain)));
  const lipBandShade = Math.log(Math.max(1, lumaOf(bareSkin)) / Math.max(1, lumaOf(bandPts)));
  const lipBandGrain = Math.log(Math.max(1e-3, grainOf(bandPts)) / Math.max(1e-3, grainOf(bareSkin)));
  const beardNotLips = both(beard, notLips);
  const chinPx = collect(within((i) => (V[i] > vMouthTop ? beardNotLips(i) : 0), beard.support), 0.5);
  const chinDark = cheekL - median(chinPx.map((p) => p[0]));

  // Hair: parser hair within the crop, the hair mask (if any) over a taller window.
  const parserHair = (i: number) => (hairProb(i) < 0.5 ? 0 : 1);
  const hairAt = hairSampler(hair, local, image, W, parserHair, win, grid);
  // Within the crop the parser's hair is the surer (the matte-based mask spills onto the face of tight crops);
  // the mask is for how far down the hair goes.
  const crown = box(-0.35, 0.35, vTop - 0.35, vTop - 0.05), beside = sides(0.5, 0.85, vEar, vChin);
  const crownHair = meanOver(within((i) => crown(i) * filled(i), crown.support), parserHair);
  const crownSkin = meanOver(box(-0.3, 0.3, vTop - 0.3, vTop - 0.05), skinP);
  const sideHair = meanOver(within((i) => beside(i) * filled(i), beside.support), parserHair);
  // No hair at all: its bottom counts as the forehead top.
  const hairBelowChin = Math.max(hairAt.depth(0.97), vTop) - vChin;
  const hairArea = hairAt.area;
  const fringe = meanOver(forehead, hairProb);
  const surest = collect((i) => (hairProb(i) > 0.8 && V[i] < vEye ? 1 : 0), 0.5);
  // A small face in a group photo has few lattice points (the lattice is every pixel there): a few dozen
  // sure hair points still give a median; below that, the parser's likelier hair, then the mask's.
  const likely = surest.length >= 30 ? surest : collect((i) => (hairProb(i) > 0.5 && V[i] < vEye ? 1 : 0), 0.5);
  const maskLab = likely.length >= 12 ? [] : hairAt.lab();
  const hairPx = likely.length >= 12 ? likely : maskLab.length >= 30 ? maskLab : [];
  // The lit hair shows its colour (any hair is dark in its own shadow): the L* that 90 % of the hair is
  // below, and the median chroma of the lighter half.
  const hairL = hairPx.map((c) => c[0]).sort((a, b) => a - b);
  const hairLit = hairL.length ? hairL[Math.floor(0.9 * (hairL.length - 1))] : NaN;
  const hairMid = hairL.length ? hairL[Math.floor(hairL.length / 2)] : NaN;
  const hairTint = median(hairPx.filter((c) => c[0] >= hairMid).map((c) => Math.hypot(c[1], c[2])));

  // Symmetry and proportions from the 3D mesh in the face frame.
  const pairs = mirrorPairs();
  let asym = 0, np = 0;
  for (let i = 0; i < pairs.length; i++) {
    const j = pairs[i];
    if (j === i) continue;
    const a = fr.at(i), b = fr.at(j);
    asym += Math.hypot(a[0] + b[0], a[1] - b[1], a[2] - b[2]); np++;
  }
  const dist = (i: number, j: number) => { const a = fr.at(i), b = fr.at(j); return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]); };
  const proportions: [number, number, number, number] = [dist(468, 473), dist(61, 291), dist(64, 294), dist(FOREHEAD_TOP, CHIN)];

  return {
    glassBand, lensGlass, eyeSeen, lensDark, lensShade, eyeSpread,
    hatTop, hatEars, hatWidth, hatGloss: gloss / nh, hatColours,
    coverNose, coverMouth, coverChin,
    lipBandShade, lipBandGrain, chinDark,
    hairBelowChin, hairArea, crownHair, crownSkin, sideHair, fringe, hairLit, hairTint,
    skinLab, skinSpread: mad(skinPx.map((p) => p[0])),
    asymmetry: np ? asym / np : NaN, proportions,
  };
}
