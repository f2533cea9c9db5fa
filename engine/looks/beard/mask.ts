/**
 * Beard and moustache of one face, as a soft mask over a window around it.
 *
 * The face parser (CelebAMask-HQ) has no beard class: a beard comes out as skin, hair or neck, partly. So
 * the mask is found where the mesh says a beard can grow (its beard and moustache zones: upper lip, chin,
 * jaw, the cheeks below the cheekbones, under the jaw; only where the parser is sure of the face) from two
 * kinds of evidence:
 *   texture  hair is fine, high-contrast texture: the local energy of the lightness's fine band well above
 *            that of the person's skin high on the face (forehead, under the eyes: no beard grows there,
 *            while the cheeks are beard on a full beard and can be smoother than a shadowed chin's grain),
 *            broad edges (the jaw, the lip line, folds) discounted;
 *   colour   hair-coloured: darker than the cheeks' skin above the beard line, or much less saturated
 *            (grey and fair beards).
 * A pixel needs texture and colour together (a chin in shadow is dark, often finely grained, but no more
 * textured than the forehead; a freckled or ruddy cheek is textured but skin-coloured); the evidence is
 * then pooled over a few millimetres (stubble is dots, a beard is an area), grown through neighbours with
 * colour and some texture, and a face whose largest connected patch of evidence covers too little of the
 * zone gets no mask at all, so a clean-shaven face comes back untouched.
 */
import { type Mask } from '../../image/mask.ts';
import { closePlane, dilatePlane, erodePlane } from '../../image/morphology.ts';
import { blurCoarse, blurPlane, blurPlaneCoarse } from '../../image/frequency.ts';
import { guidedFilter } from '../../image/guided-filter.ts';
import type { RasterImage } from '../../image/raster.ts';
import { toLab } from '../../image/colour.ts';
import type { Rect } from '../../image/rect.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { FACE_OVAL, LEFT_EYE, LIPS_LOWER_OUTER, LIPS_UPPER_OUTER, RIGHT_EYE } from '../../vision/faces/landmarks.ts';
import type { FaceParsing, ParseOptions, ParsingClass } from '../../vision/parsing/face-parsing.ts';
import { type GrainSource, removeBeard, type RemovalStats } from './removal.ts';
import { lipPlanes, type LipPlanes } from './lips.ts';
import { skinSeen } from './skin-seen.ts';
import { beardTuning, removalTuning } from './tuning.ts';
import { floodFrom, largestPatch } from './connected.ts';
import { faceRegions, type RegionName } from '../../vision/regions/face-regions.ts';
import { feather, grow, union } from '../../image/feather.ts';
import { fillPolygon, type Pt } from '../../image/polygon.ts';
import { convexHull, LEFT_NOSTRIL, meshFaceWidth, meshWindow, parsingPlane, RIGHT_NOSTRIL } from '../../vision/regions/skin-mask.ts';

/** The parsing classes the beard mask reads (an effect may parse only these). */
export const BEARD_PARSING_CLASSES: readonly ParsingClass[] = ['skin', 'nose', 'neck', 'hair', 'upperLip', 'lowerLip', 'mouth', 'cloth', 'glasses', 'hat', 'background'];
/** Parse options for the beard: 384 input as face-beauty's (the mask pools over millimetres), only its classes. */
export const BEARD_PARSING: ParseOptions = { input: 384, classes: BEARD_PARSING_CLASSES };

/** The mesh regions the beard mask reads. */
export const BEARD_REGIONS: readonly RegionName[] = ['beard', 'moustache', 'leftCheek', 'rightCheek', 'forehead', 'leftUnderEye', 'rightUnderEye'];

export interface BeardMask {
  /** The window (image pixels) the planes cover. */
  win: Rect;
  faceWidth: number;
  /** 0..1: beard and moustache (all zeros on a clean-shaven face). */
  beard: Float32Array;
  /** 0..1: where the beard can grow (the mesh's zones, lips and nostrils out). */
  zone: Float32Array;
  /** 0..1: the face's bare skin outside the zone (cheeks, neck, forehead): where a fill may copy from. */
  skin: Float32Array;
  /** Share of the zone covered by the beard, 0..1. */
  coverage: number;
  /** Share of the beard showing no skin between its hairs, 0..1. */
  hidden: number;
  /** Dense (hidden at beardTuning.denseAt or more): the mask is one smooth region, for a membrane fill. */
  dense: boolean;
  /** 0..1: inside the face's outline (the jaw's edge a fill must not smooth across). */
  inside: Float32Array;
  /** 0..1: the face's own surface, lips, nostrils, eyes, hair and anything not face out. */
  bare: Float32Array;
  /** 0..1: each lip and the mouth's opening, from the mesh's contours (what the removal's lips.ts works on). */
  lips: LipPlanes;
  /** The evidence planes, for debugging renders and tuning. */
  evidence: { texture: Float32Array; dark: Float32Array; grey: Float32Array; hair: Float32Array; pixel: Float32Array; pooled: Float32Array; seed: Float32Array; hairColour: Float32Array; darkness: Float32Array; satDrop: Float32Array; texRatio: Float32Array };
}

/** A mask's values resampled onto a window, 0..1. */
function windowed(mask: Mask | undefined, win: Rect): Float32Array {
  const out = new Float32Array(win.w * win.h);
  if (!mask) return out;
  for (let y = 0; y < win.h; y++) {
    const src = (win.y0 + y) * mask.width + win.x0, o = y * win.w;
    for (let x = 0; x < win.w; x++) out[o + x] = mask.data[src + x] * (1 / 255);
  }
  return out;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const median = (v: Float32Array | number[]) => { const s = Float32Array.from(v).sort(); return s.length ? s[s.length >> 1] : NaN; };

/**
 * Planes' values on the reference skin spread over the window: a masked blur, leaning toward the skin's
 * median where little skin is within reach (the chin and neck lie far from the cheeks). The weight's blur
 * is shared by the planes.
 */
function skinReference(planes: Float32Array[], weight: Float32Array, idx: number[], win: Rect, sigma: number): Float32Array[] {
  const den = blurCoarse(weight, win.w, win.h, sigma);
  return planes.map((plane) => {
    const m = median(idx.map((i) => plane[i]));
    const pw = new Float32Array(plane.length);
    for (let i = 0; i < pw.length; i++) pw[i] = plane[i] * weight[i];
    const num = blurCoarse(pw, win.w, win.h, sigma);
    const k = 0.05;
    for (let i = 0; i < num.length; i++) num[i] = (num[i] + k * m) / (den[i] + k);
    return num;
  });
}

/**
 * The window a face's beard mask covers: the mesh's box, reaching past the jaw and the cheeks as far as a
 * removal copies skin from (removalTuning.context past the zone, which reaches `skirt` past the mesh) and
 * over the forehead as far as the texture's blurs read (retouchWindow's half a face each way was twice the
 * pixels for nothing).
 */
export function beardWindow(face: Face, size: { width: number; height: number }): Rect | null {
  const side = removalTuning.context + beardTuning.skirt;
  return meshWindow(face, size, { side, top: beardTuning.windowTop, bottom: side });
}

/**
 * The beard of one meshed face (null without a mesh). `regions` may pass masks already drawn for the face
 * (faceRegions' `beard`, `moustache`, `leftCheek`, `rightCheek`); they are drawn here otherwise.
 */
export function beardMask(image: RasterImage, face: Face, parsing: FaceParsing, regions?: Partial<Record<RegionName, Mask>>): BeardMask | null {
  const mesh = face.mesh;
  const win = beardWindow(face, image);
  if (!mesh || !win) return null;
  const T = beardTuning;
  const fw = meshFaceWidth(mesh);
  const n = win.w * win.h;
  const reg = regions && BEARD_REGIONS.every((r) => regions[r]) ? regions : faceRegions(face, image, undefined, BEARD_REGIONS);
  const pts = (idx: readonly number[]) => idx.map((i) => mesh[i] as Pt);
  const lips = fillPolygon(pts([...LIPS_UPPER_OUTER, ...[...LIPS_LOWER_OUTER].reverse()]), win);
  const nostrils = union(fillPolygon(convexHull(pts(RIGHT_NOSTRIL)), win), fillPolygon(convexHull(pts(LEFT_NOSTRIL)), win));
  const eyes = union(fillPolygon(pts(RIGHT_EYE), win), fillPolygon(pts(LEFT_EYE), win));
  const P = (c: readonly ParsingClass[]) => parsingPlane(parsing, c, win);
  const hair = P(['hair']), skinP = P(['skin', 'nose']), neck = P(['neck']);
  const notFace = P(['cloth', 'glasses', 'hat', 'background']);
  // The mesh's lips, not the parser's: a moustache over the lip line reads as lip to the parser.
  const lipWall = grow(lips, win, T.lipWall * fw);
  const features = union(lipWall, grow(nostrils, win, T.nostrilWall * fw));
  const lipParts = lipPlanes(mesh, win);

  const oval = fillPolygon(pts(FACE_OVAL), win);
  // A beard grows under the jaw, past the mesh's beard zone: the band under the face's outline below the
  // mouth, as deep as `underJaw`, joins the zone (the parser's confidence and the evidence decide there).
  const zoneMesh = union(windowed(reg.beard, win), windowed(reg.moustache, win));
  const zoneRaw = union(zoneMesh, underJaw());
  const zone = new Float32Array(n), zoneWide = new Float32Array(n);
  // The parser has no beard class (CelebAMask-HQ labels beards as skin): what it calls hair inside the zone
  // is the head's hair falling past the jaw or over a cheek, which is no beard.
  // Between the mouth corners (moustache, chin) the parser's hair is the beard itself, so it is left in there.
  const [lx, ly] = mesh[61], [rx, ry] = mesh[291];
  const ax = rx - lx, ay = ry - ly, al = Math.hypot(ax, ay) || 1;
  const sideways = (i: number) => {
    const t = ((win.x0 + (i % win.w) - lx) * ax + (win.y0 + ((i / win.w) | 0) - ly) * ay) / al; // along the mouth, from its right corner
    const out = Math.max(-t, t - al) - T.mouthSide * fw;
    return Math.min(1, Math.max(0, out / (T.mouthSide * fw)));
  };
  // Within the face's outline and a little past it: a fill across the jaw's edge onto the neck's shadow would
  // take the jaw line (and the face's shape) with it.
  const outline = grow(oval, win, T.skirt * fw), outlineWide = grow(oval, win, Math.max(T.skirt, T.denseSkirt) * fw);
  // And only where the parser is confident of the face: on a turned face the mesh's jaw zone reaches past
  // the chin into the background, which the parser may call skin at one chance in two (a fill there paints
  // a skin-coloured horn). Past the outline (under the jaw) it must be surer still.
  const faceP = P(['skin', 'nose', 'neck', 'hair', 'upperLip', 'lowerLip', 'mouth']);
  for (let i = 0; i < n; i++) {
    if (zoneRaw[i] === 0) continue;
    const sure = Math.min(1, Math.max(0, (faceP[i] - T.sure) / T.sureSpan - (1 - oval[i])));
    zoneWide[i] = zoneRaw[i] * (1 - features[i]) * (1 - notFace[i]) * (hair[i] > 0 ? 1 - hair[i] * sideways(i) : 1) * sure;
    zone[i] = zoneWide[i] * outline[i];
    zoneWide[i] *= outlineWide[i];
  }

  const lab = toLab(image, win);
  const { L, a, b } = lab;
  // Saturation as C* / (L* + 16): shading scales L* + 16 and C* alike (both go as the cube root of
  // luminance), so skin in shadow keeps it while hair, greyer than skin, has less.
  const sat = new Float32Array(n);
  for (let i = 0; i < n; i++) sat[i] = Math.hypot(a[i], b[i]) / (L[i] + 16);
  // At least a pixel: on small faces a hair is thinner than a pixel and the finest band is all there is.
  const low = blurPlane(L, win.w, win.h, Math.max(1, T.fineSigma * fw));
  const hi2 = new Float32Array(n);
  for (let i = 0; i < n; i++) { const d = L[i] - low[i]; hi2[i] = d * d; }
  const energy = blurPlane(hi2, win.w, win.h, Math.max(2, T.energySigma * fw));
  const tone = blurPlane(L, win.w, win.h, T.toneSigma * fw);
  const saturation = blurPlane(sat, win.w, win.h, T.toneSigma * fw);
  // Edges (the jaw against the neck, the lip line, a fold) also fill the fine band; hair does so without a
  // broad gradient, so the fine energy is weighed against the tone's gradient.
  // The edges' gradient is read on a blur broader than the hairs, so that in a soft photo (where a beard's
  // texture is a few pixels wide) the beard itself does not count as edges.
  const broad = blurPlaneCoarse(L, win.w, win.h, T.edgeSigma * fw);
  const grad2 = new Float32Array(n);
  for (let y = 1; y < win.h - 1; y++) for (let x = 1, i = y * win.w + 1; x < win.w - 1; x++, i++) {
    const gx = (broad[i + 1] - broad[i - 1]) / 2, gy = (broad[i + win.w] - broad[i - win.w]) / 2;
    grad2[i] = gx * gx + gy * gy;
  }
  const edge = blurPlane(grad2, win.w, win.h, Math.max(2, T.energySigma * fw));

  // The person's bare cheek skin: the mesh's cheeks above the beard zone where the parser is sure of skin.
  // Its tone is spread over the face by a wide masked blur, so each pixel is weighed against the skin
  // nearest it (a face lit from one side has one cheek darker).
  const cheeks = union(windowed(reg.leftCheek, win), windowed(reg.rightCheek, win));
  const refW = new Float32Array(n);
  const refIdx: number[] = [];
  for (let i = 0; i < n; i++) if (cheeks[i] > 0.5 && skinP[i] > T.refSkin && zoneRaw[i] < T.refZone && hair[i] < T.refHair && eyes[i] === 0) { refW[i] = 1; refIdx.push(i); }
  if (refIdx.length < T.refLeast) return empty();
  const [refTone, refSat] = skinReference([tone, saturation], refW, refIdx, win, T.refSigma * fw);
  const mad = (idx: number[]) => 1.4826 * median(idx.map((i) => Math.abs(tone[i] - refTone[i])));
  // The spread says how far skin strays from its reference; a shadow's edge across one cheek (a side-lit
  // face's shaded cheek spreads several times as far as its lit one) is shading the reference's wide blur
  // cannot follow, and would make a beard's darkness count for nothing.
  const leftCheek = windowed(reg.leftCheek, win);
  const sides = [refIdx.filter((i) => leftCheek[i] > 0.5), refIdx.filter((i) => leftCheek[i] <= 0.5)].filter((s) => s.length >= T.refLeast).map(mad);
  const both = mad(refIdx);
  const spread = Math.max(2, sides.length === 2 && Math.max(...sides) > T.shadedCheek * Math.min(...sides) ? Math.min(...sides) : both);
  // The person's skin high on the face: forehead and under the eyes, where no beard grows.
  const upper = union(windowed(reg.forehead, win), windowed(reg.leftUnderEye, win), windowed(reg.rightUnderEye, win));
  const upIdx: number[] = [];
  for (let i = 0; i < n; i++) if (upper[i] > 0.5 && skinP[i] > T.refSkin && hair[i] < T.refHair && eyes[i] === 0 && zoneRaw[i] < T.refZone) upIdx.push(i);
  // Texture is weighed against the skin high on the face (forehead, under the eyes), which no beard reaches:
  // the cheeks above the beard line are beard on a full beard, and on a smooth face they can be smoother
  // than the chin's fine grain (a sharp photo of dark skin, a chin in shadow).
  const texIdx = upIdx.length >= T.refLeast ? upIdx : refIdx;
  const texE = median(texIdx.map((i) => energy[i])), refG = median(texIdx.map((i) => edge[i]));
  const edgeWeight = T.edgeWeight * Math.min(1, (texE + 0.05) / (refG + 0.05));

  const texture = new Float32Array(n), dark = new Float32Array(n), grey = new Float32Array(n), pixel = new Float32Array(n);
  const darkness = new Float32Array(n), satDrop = new Float32Array(n), texRatio = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (zoneWide[i] <= 0) continue;
    texRatio[i] = 0.5 * Math.log2((energy[i] + 0.05) / (texE + 0.05 + edgeWeight * Math.max(0, edge[i] - refG)));
    texture[i] = sigmoid(T.textureGain * (texRatio[i] - T.texture));
    darkness[i] = (refTone[i] - tone[i]) / spread;
    dark[i] = sigmoid(T.darkGain * (darkness[i] - T.dark));
    // A photo without colour (grey skin) says nothing by saturation.
    satDrop[i] = refSat[i] > T.colourless ? 1 - saturation[i] / refSat[i] : 0;
    grey[i] = refSat[i] > T.colourless ? sigmoid((satDrop[i] - T.grey) / T.greySoft) : 0;
    const colour = Math.max(dark[i], grey[i]);
    // Texture is required: colour alone (dark and grey together) is as often a chin in shadow as a beard.
    pixel[i] = zone[i] * colour * texture[i];
  }
  // Pooled as a mean over the zone (not over everything), so a narrow band (the upper lip) or the zone's
  // edge is not diluted by the lips or the background beside it.
  const ps = T.poolSigma * fw;
  // Broad, smooth blurs: on blocks of a quarter sigma (blurPlaneCoarse).
  const zonePooled = blurPlaneCoarse(zone, win.w, win.h, ps);
  const pooled = blurPlaneCoarse(pixel, win.w, win.h, ps);
  const colourOnly = new Float32Array(n);
  for (let i = 0; i < n; i++) colourOnly[i] = zone[i] * Math.max(dark[i], grey[i]);
  const pooledColour = blurPlaneCoarse(colourOnly, win.w, win.h, ps);
  for (let i = 0; i < n; i++) {
    const z = Math.max(zonePooled[i], 0.05);
    pooled[i] /= z; pooledColour[i] /= z;
  }
  // No seed along the face's outline: the jaw's edge against the neck's shadow is fine-band energy too.
  const inner = feather(oval, win, T.outline * fw);
  // On a small face a hair is a fraction of a pixel, and a dense dark beard (a goatee at 90 px) is as
  // smooth as the forehead: there colour seeds it alone, when it is hair's and not shading's: far darker
  // than the cheeks (in their spreads and as a share of their lightness) and greyer (shading keeps the
  // skin's saturation).
  const small = Math.min(1, Math.max(0, (T.smallFace - fw) / (0.25 * T.smallFace)));
  let pooledHair: Float32Array | null = null;
  if (small > 0) {
    const hairColour = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      if (zone[i] <= 0) continue;
      const drop = (refTone[i] - tone[i]) / (refTone[i] + 16);
      hairColour[i] = small * zone[i] * sigmoid(T.darkGain * (darkness[i] - T.hairDark)) * sigmoid((satDrop[i] - T.hairGrey) / T.greySoft) * sigmoid((drop - T.hairDrop) / T.dropSoft);
    }
    pooledHair = blurPlaneCoarse(hairColour, win.w, win.h, ps);
    for (let i = 0; i < n; i++) pooledHair[i] /= Math.max(zonePooled[i], 0.05);
  }
  const seed = new Uint8Array(n), open = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (zone[i] < T.zoneFrom) continue;
    if (pooled[i] >= T.on && inner[i] > T.seedInner) seed[i] = 1;
    // Hair's colour is no edge's: it may seed up to the outline (a goatee reaches the chin's edge).
    if (pooledHair && pooledHair[i] >= T.on && inner[i] > T.hairInner) seed[i] = 1;
    if (pooledColour[i] >= T.grown && pooled[i] >= T.on * T.growTexture) open[i] = 1;
  }
  let region = floodFrom(seed, open, win.w, win.h);
  let zoneSum = 0;
  // Coverage is a share of the mesh's zone (the band under the jaw is grown into, not counted against).
  for (let i = 0; i < n; i++) zoneSum += zoneMesh[i];
  // A beard is an area: scattered specks of evidence (grain in a shadow, a scarf's edge) are not, so the
  // face counts as bearded by its largest connected patch of seeds.
  const patch = largestPatch(seed, win.w, win.h);
  // The second reading: the lower face's pixels whose colour is not the person's own skin (colourBeard).
  const byColour = colourBeard();
  // Counted as the zone's pixels (within the outline) the colour region reaches from its seeds.
  let colourPatch = 0;
  if (byColour) for (let i = 0; i < n; i++) if (byColour.region[i] && zone[i] >= T.zoneFrom && inner[i] > T.hairInner) colourPatch++;
  // The colour reading must find an area of the zone (a beard), not a shadow's patch: more than the texture's least.
  if (colourPatch < T.colourLeast * zoneSum) colourPatch = 0;
  const bearded = zoneSum > 0 && Math.max(patch, colourPatch) / zoneSum >= T.least;
  const coverage = bearded ? Math.max(patch, colourPatch) / zoneSum : 0;
  if (bearded && byColour && colourPatch > 0) for (let i = 0; i < n; i++) if (byColour.region[i]) region[i] = 1;

  // Dense or not: where skin shows between the hairs (stubble, a sparse beard) the removal reads the face's
  // shading from it; over a dense beard it finds none, and has nothing but the skin around to go on. Two
  // readings, both needed: the removal's own (skinSeen: a lightness closing a hair wide, of the cheeks' hue;
  // blind on small faces) and the closing's lightness (over a dense beard it stays at the lightest hair's,
  // darker than the cheeks by `dark` spreads; stubble's skin can be that dark too, its hue is not).
  const cheekAB = (c: Float32Array) => median(refIdx.map((i) => c[i]));
  const skinAB = { a: cheekAB(a), b: cheekAB(b), spreadAB: 0 };
  skinAB.spreadAB = Math.max(2, 1.4826 * median(refIdx.map((i) => Math.hypot(a[i] - skinAB.a, b[i] - skinAB.b))));
  // Read on the region's box (and its blurs' reach) alone, and only on a face with a beard at all.
  let hidden = 0;
  if (bearded) {
    let x0 = win.w, y0 = win.h, x1 = -1, y1 = -1;
    for (let i = 0; i < n; i++) {
      if (!region[i]) continue;
      const x = i % win.w, y = (i / win.w) | 0;
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
    }
    const g = Math.ceil(3 * Math.max(removalTuning.skinSigma, T.toneSigma) * fw + removalTuning.closeRadius * fw + 2);
    x0 = Math.max(0, x0 - g); y0 = Math.max(0, y0 - g); x1 = Math.min(win.w - 1, x1 + g); y1 = Math.min(win.h - 1, y1 + g);
    const bw = x1 - x0 + 1, bh = y1 - y0 + 1;
    const cut = (p: Float32Array) => { const o = new Float32Array(bw * bh); for (let y = 0; y < bh; y++) o.set(p.subarray((y0 + y) * win.w + x0, (y0 + y) * win.w + x0 + bw), y * bw); return o; };
    const bL = cut(L);
    const { seen } = skinSeen([bL, cut(a), cut(b)], bw, bh, fw, skinAB);
    const closedTone = blurPlane(closePlane(bL, bw, bh, Math.max(1, removalTuning.closeRadius * fw)), bw, bh, T.toneSigma * fw);
    let byHue = 0, byTone = 0, count = 0;
    for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
      const i = (y0 + y) * win.w + x0 + x, j = y * bw + x;
      if (!region[i]) continue;
      count++;
      byHue += 1 - seen[j];
      byTone += sigmoid(T.darkGain * ((refTone[i] - closedTone[j]) / spread - T.dark));
    }
    hidden = count ? (byHue + byTone) / 2 / count : 0;
  }
  // A beard found by its colour hides the skin wherever it is found: nothing of the skin's shading shows.
  const dense = bearded && (hidden >= T.denseAt || colourPatch > patch);
  let softEdge = T.edge;
  if (dense) {
    // A dense beard is one region: its seeds grown through colour alone (its densest parts are as smooth as
    // skin at a soft photo's resolution, so texture finds only patches of it), holes and bays closed.
    // Read over the zone reaching under the jaw (denseSkirt).
    const colourWide = new Float32Array(n);
    for (let i = 0; i < n; i++) colourWide[i] = zoneWide[i] * Math.max(dark[i], grey[i]);
    const pooledWide = blurPlaneCoarse(colourWide, win.w, win.h, ps), wideZonePooled = blurPlaneCoarse(zoneWide, win.w, win.h, ps);
    const openColour = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (zoneWide[i] >= T.zoneFrom && pooledWide[i] / Math.max(wideZonePooled[i], 0.05) >= T.grown) openColour[i] = 1;
    if (byColour && colourPatch > 0) for (let i = 0; i < n; i++) if (byColour.region[i]) { seed[i] = 1; openColour[i] = 1; }
    const grownRegion = floodFrom(seed, openColour, win.w, win.h);
    const f = Float32Array.from(grownRegion);
    const closed = erodePlane(dilatePlane(f, win.w, win.h, T.denseClose * fw), win.w, win.h, T.denseClose * fw);
    const g = grow(closed, win, T.denseGrow * fw);
    region = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (g[i] > 0.5 && zoneWide[i] > 0.05) region[i] = 1;
    softEdge = T.denseEdge;
  }
  const beard = new Float32Array(n);
  const beardZone = dense ? zoneWide : zone;
  for (let i = 0; i < n; i++) if (region[i]) beard[i] = beardZone[i];
  const soft = bearded ? feather(beard, win, softEdge * fw) : new Float32Array(n);

  // Where a fill may copy skin from: sure skin or neck, outside the grown zone and the features, not hair.
  const reach = grow(union(zoneRaw, soft), win, T.skinReach * fw);
  const skin = new Float32Array(n);
  const holes = union(grow(eyes, win, T.eyeHole * fw), features);
  for (let i = 0; i < n; i++) skin[i] = Math.max(skinP[i], neck[i]) * (1 - reach[i]) * (1 - holes[i]) * (1 - hair[i]) * (1 - notFace[i]);

  return { win, faceWidth: fw, beard: soft, zone: beardZone, skin, coverage, hidden, dense, inside: oval, bare: bareOf(), lips: lipParts, evidence: { texture, dark, grey, hair, pixel, pooled, seed: Float32Array.from(seed), hairColour: pooledHair ?? new Float32Array(n), darkness, satDrop, texRatio } };

  /**
   * The beard as the lower face's pixels (the zone reaching under the jaw) whose colour is not the person's
   * own beard-free skin under the photo's light: against the skin high on the face and on the cheeks above
   * the beard line, a pixel counts as hair where it is darker (log lightness, so shading is a shift) AND less
   * saturated (C* / (L* + 16), which shading keeps) than that skin by several of the skin's own spreads. A
   * dark beard on dark skin is found so: darker and greyer than his forehead, whatever its texture (black
   * hair on dark skin has little fine contrast). The evidence is smoothed by a guided filter on the photo's
   * log lightness (the beard's edge follows the photo's, not a blur's), and kept where connected to seeds
   * inside the face's outline. Null where the skin gives no reference or the face has no colour.
   */
  function colourBeard(): { seed: Uint8Array; region: Uint8Array } | null {
    if (median(refIdx.map((i) => refSat[i])) <= T.colourless) return null;
    const like = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      if (zoneWide[i] <= 0 || refSat[i] <= T.colourless) continue;
      const dark = Math.log((refTone[i] + 16) / (Math.max(0, tone[i]) + 16)), drop = 1 - saturation[i] / refSat[i];
      // Darker and greyer than the skin (a black beard on any skin), or darker and textured as the mask's
      // texture reads it (a brown beard in warm light is as saturated as the skin); far darker than shading
      // alone. Texture in L* itself, not relative: a shadow's pores and noise grow against its lightness.
      const grainy = texture[i];
      like[i] = sigmoid((dark - T.colourDark) / T.colourSoft) * Math.max(sigmoid((drop - T.colourGrey) / T.colourSoft), grainy);
    }
    const guide = Float32Array.from(L, (v) => Math.log(Math.max(0, v) + 16));
    const r = Math.max(1, Math.round(T.colourRadius * fw));
    const { w, h } = win!;
    const smooth = guidedFilter(guide, like, w, h, r, T.colourEps);
    const seedC = new Uint8Array(n), openC = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      if (smooth[i] < 0.5 || zoneWide[i] < T.zoneFrom) continue;
      openC[i] = 1;
      // Seeds between the mouth's corners only (the chin, the upper lip): every beard has hair there, while
      // the head's hair falling past the jaw (darker and textured too) lies beside it.
      if (zone[i] >= T.zoneFrom && inner[i] > T.hairInner && sideways(i) === 0) seedC[i] = 1;
    }
    return { seed: seedC, region: floodFrom(seedC, openC, w, h) };
  }

  /** The band under the jaw: the face's outline moved down by up to `underJaw` face widths, below the mouth, less the outline itself. */
  function underJaw(): Float32Array {
    const out = new Float32Array(n), W = win!.w;
    const mouthY = Math.max(mesh![61][1], mesh![291][1]) - win!.y0, depth = T.underJaw * fw;
    // Per column, the oval's lowest row; the band reaches `depth` below it.
    for (let x = 0; x < W; x++) {
      let bottom = -1;
      for (let y = win!.h - 1; y >= 0; y--) if (oval[y * W + x] > 0.5) { bottom = y; break; }
      if (bottom < mouthY) continue;
      for (let y = bottom + 1; y < Math.min(win!.h, bottom + depth); y++) out[y * W + x] = 1;
    }
    return out;
  }

  function bareOf(): Float32Array {
    const out = new Float32Array(n);
    // Hair too: beside the jaw it is the head's (or a scarf the parser calls hair), never skin to carry in.
    for (let i = 0; i < n; i++) out[i] = (1 - features[i]) * (1 - notFace[i]) * (1 - eyes[i]) * (1 - hair[i]);
    return out;
  }

  function empty(): BeardMask {
    const z = new Float32Array(n);
    return { win: win!, faceWidth: fw, beard: z, zone, skin: z, coverage: 0, hidden: 0, dense: false, inside: oval, bare: bareOf(), lips: lipParts, evidence: { texture: z, dark: z, grey: z, hair, pixel: z, pooled: z, seed: z, hairColour: z, darkness: z, satDrop: z, texRatio: z } };
  }
}

/**
 * One face's beard found on `source` (the photo as sent) and removed from `target` (a copy being edited,
 * same size). Returns the mask's coverage and the removal's figures, or null when the face has no mesh,
 * no beard, or no bare skin to fill from (then `target` is untouched). `regions` may pass BEARD_REGIONS
 * already drawn for the face (the pipeline's facts.regions).
 */
export function removeFaceBeard(target: RasterImage, source: RasterImage, face: Face, parsing: FaceParsing, regions?: Partial<Record<RegionName, Mask>>, grain?: GrainSource): (RemovalStats & { coverage: number; mask: BeardMask }) | null {
  const mask = beardMask(source, face, parsing, regions);
  if (!mask || mask.coverage === 0) return null;
  const done = removeBeard(target, { ...mask, grain, mesh: face.mesh });
  return done && { ...done, coverage: mask.coverage, mask };
}
