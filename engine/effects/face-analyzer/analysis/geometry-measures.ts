/**
 * Raw measurements of a face for the geometry attributes (geometry-attributes.ts turns them into coded
 * answers). Everything is taken in the face's own frame: the mesh is turned so that the cheek-to-cheek
 * line (234 -> 454) is the x axis and forehead-to-chin (10 -> 152) the y axis, with the mesh's z, so yaw,
 * pitch and roll drop out, and lengths are divided by the face's width (|454 - 234| in 3D), so the size of
 * the face in the photo drops out. Pixel measures (brows, eyelid crease) sample the image along lines laid
 * out in that frame and mapped back into the photo.
 */
import type { RasterImage } from '../../../image/raster.ts';
import type { Face } from '../../../vision/faces/detect.ts';

type P3 = readonly [number, number, number];
type Mesh = readonly (readonly number[])[];

/** The face's frame: image point <-> face coordinates (units of face width, origin between the eyes). */
export interface FaceFrame {
  /** Face width in image pixels (3D distance cheek to cheek). */
  width: number;
  /** Mesh point `i` in face coordinates: x to the subject's left (image right), y down, z away from the camera. */
  at(i: number): P3;
  /** A face-coordinate point back in image pixels. */
  toImage(p: P3): [number, number];
}

const sub = (a: P3, b: P3): P3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: P3, b: P3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: P3) => Math.hypot(a[0], a[1], a[2]);
const scale = (a: P3, k: number): P3 => [a[0] * k, a[1] * k, a[2] * k];
const cross = (a: P3, b: P3): P3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const lerp = (a: P3, b: P3, t: number): P3 => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

export function faceFrame(mesh: Mesh): FaceFrame {
  const p = (i: number): P3 => [mesh[i][0], mesh[i][1], mesh[i][2] ?? 0];
  const across = sub(p(454), p(234));
  const width = len(across) || 1;
  const x = scale(across, 1 / width);
  const down = sub(p(152), p(10));
  const yRaw = sub(down, scale(x, dot(down, x)));
  const y = scale(yRaw, 1 / (len(yRaw) || 1));
  const z = cross(x, y);
  const o = scale([mesh[168][0] + mesh[6][0], mesh[168][1] + mesh[6][1], (mesh[168][2] ?? 0) + (mesh[6][2] ?? 0)], 0.5);
  return {
    width,
    at(i) { const d = sub(p(i), o); return [dot(d, x) / width, dot(d, y) / width, dot(d, z) / width]; },
    toImage([a, b, c]) {
      return [o[0] + width * (a * x[0] + b * y[0] + c * z[0]), o[1] + width * (a * x[1] + b * y[1] + c * z[1])];
    },
  };
}

/** Bilinear luma (Rec. 601, 0..255) of an image; NaN outside it. */
export function lumaSampler(image: RasterImage): (x: number, y: number) => number {
  return channelSampler(image, (d, i) => 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]);
}

function channelSampler(image: RasterImage, at0: (d: Buffer, i: number) => number): (x: number, y: number) => number {
  const { data, width: w, height: h, channels: ch } = image;
  const at = (i: number) => at0(data, i);
  return (x, y) => {
    const fx = x - 0.5, fy = y - 0.5;
    if (!(fx >= 0 && fy >= 0 && fx <= w - 1 && fy <= h - 1)) return NaN;
    const x0 = Math.min(w - 2, Math.floor(fx)), y0 = Math.min(h - 2, Math.floor(fy));
    const ax = fx - x0, ay = fy - y0;
    const i = (y0 * w + x0) * ch;
    if (w < 2 || h < 2) return at(i);
    const top = at(i) * (1 - ax) + at(i + ch) * ax;
    const bottom = at(i + w * ch) * (1 - ax) + at(i + w * ch + ch) * ax;
    return top * (1 - ay) + bottom * ay;
  };
}

const median = (v: number[]) => {
  const s = v.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** One side of the face: mesh indices for its eye and brow. "Right" is the subject's (image left). */
interface Side {
  corners: readonly [number, number];
  /** Outer edge of the nose wing on this side. */
  ala: number;
  /** Upper and lower lid margins, paired across the opening (iris-refined contour). */
  lids: readonly (readonly [number, number])[];
  /** The closed opening, for its area. */
  opening: readonly number[];
  /** Brow: upper edge and lower edge, paired, from the temple inward. */
  brow: readonly (readonly [number, number])[];
}

const RIGHT: Side = {
  corners: [33, 133],
  ala: 129,
  lids: [[161, 163], [160, 144], [159, 145], [158, 153], [157, 154]],
  opening: [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
  brow: [[70, 46], [63, 53], [105, 52], [66, 65], [107, 55]],
};
const LEFT: Side = {
  corners: [263, 362],
  ala: 358,
  lids: [[388, 390], [387, 373], [386, 374], [385, 380], [384, 381]],
  opening: [263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249],
  brow: [[300, 276], [293, 283], [334, 282], [296, 295], [336, 285]],
};

export interface EyeMeasures {
  /** Lid gap over eye width (the eye aspect ratio): about 0.3 open, under 0.1 closed. */
  openness: number;
  /** Eye width (corner to corner) over face width. */
  width: number;
  /** Opening area over face width squared. */
  area: number;
  /** Weight of this eye in the face's answer: its width as seen in the photo (the far eye of a turned head counts less). */
  weight: number;
  /** Depth of the darkest line between lid margin and brow (a double eyelid's crease) over the skin's luma; NaN without pixels. */
  crease: number;
  /** Lid-to-brow distance in image pixels (how much there was to see the crease in). */
  lidPixels: number;
  /** (brightest tenth of the opening - skin below the eye) / skin luma: visible white of the eye. NaN without pixels. */
  sclera: number;
}

export interface BrowMeasures {
  /** (skin luma - brow luma) / skin luma: how dark the brow is against the skin around it. */
  contrast: number;
  /** Arch of the brow's centreline from the pixels: greatest rise over the chord, over the chord length. */
  arch: number;
  /** Arch of the mesh's brow centreline (same measure, from the mesh alone). */
  meshArch: number;
  /** Length of the dark brow along its line over the eye's width (from the pixels). */
  length: number;
  /** Mesh brow length (temple end to inner end) over the eye's width. */
  meshLength: number;
  /**
   * How far the dark brow's outer end passes the line from the nose wing through the eye's outer corner
   * (where a full brow ends), over the eye's width: positive beyond it (long), negative short of it.
   */
  reach: number;
  weight: number;
}

export interface GeometryMeasures {
  eyes: { right: EyeMeasures; left: EyeMeasures };
  brows: { right: BrowMeasures; left: BrowMeasures };
  mouth: {
    /** Inner-lip gap over mouth width. */
    gap: number;
    /** Mouth width (corner to corner) over face width. */
    width: number;
    /** How far the corners sit above the lips' centre, over mouth width (positive: corners up, as in a smile). */
    cornerLift: number;
  };
  nose: {
    /** Columella angle above the face's forward axis, degrees: the tip turned up. */
    upturn: number;
    /** Bulge of the bridge in front of the line nasion -> tip, over nose length. */
    hump: number;
    /** Tip (lobule) width over alar width: a bulbous tip is wide. */
    tipWidth: number;
    /** Nose length (nasion to subnasale) over face width. */
    length: number;
  };
  shape: {
    /** Forehead top (mesh 10) to chin over face width. */
    length: number;
    /** Widths over face (cheek) width: temples (54-284), jaw angles (172-397), chin (149-378). */
    forehead: number;
    jaw: number;
    chin: number;
  };
}

/** The measures of one face (null without a mesh). Pixel measures are NaN when the image is left out. */
export function measureGeometry(face: Face, image?: RasterImage): GeometryMeasures | null {
  const mesh = face.mesh;
  if (!mesh || mesh.length < 468) return null;
  const f = faceFrame(mesh);
  const luma = image ? lumaSampler(image) : undefined;
  const eye = (s: Side): EyeMeasures => measureEye(mesh, f, s, luma);
  const right = eye(RIGHT), left = eye(LEFT);
  const brow = (s: Side, e: EyeMeasures): BrowMeasures => measureBrow(f, s, e, luma);
  return {
    eyes: { right, left },
    brows: { right: brow(RIGHT, right), left: brow(LEFT, left) },
    mouth: measureMouth(f),
    nose: measureNose(f),
    shape: measureShape(f),
  };
}

function measureEye(mesh: Mesh, f: FaceFrame, s: Side, luma?: (x: number, y: number) => number): EyeMeasures {
  const [outer, inner] = s.corners.map((i) => f.at(i));
  const w = len(sub(inner, outer)) || 1e-6;
  // Vertical gaps in the face frame: a head turned or tilted does not shrink them.
  const gaps = s.lids.map(([u, l]) => f.at(l)[1] - f.at(u)[1]);
  const openness = Math.max(0, gaps.reduce((a, b) => a + b, 0) / gaps.length) / w;
  let area = 0;
  const pts = s.opening.map((i) => f.at(i));
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) area += (pts[j][0] * pts[i][1] - pts[i][0] * pts[j][1]) / 2;
  const seen = Math.hypot(mesh[s.corners[1]][0] - mesh[s.corners[0]][0], mesh[s.corners[1]][1] - mesh[s.corners[0]][1]);
  const { crease, lidPixels } = luma ? measureCrease(f, s, luma) : { crease: NaN, lidPixels: 0 };
  // Sclera: the brightest tenth of the opening against the skin below the lower lid (a quarter of the
  // eye's width further down). An open eye shows white beside the iris even when narrowed by a smile; a
  // closed one shows lid skin and lashes, no lighter than the cheek.
  let sclera = NaN;
  if (luma) {
    const open: number[] = [];
    for (const [u, l] of s.lids) for (const t of [0.3, 0.5, 0.7]) open.push(luma(...f.toImage(lerp(f.at(u), f.at(l), t))));
    const skin = median(s.lids.map(([, l]) => { const p = f.at(l); return luma(...f.toImage([p[0], p[1] + 0.25 * w, p[2]])); }));
    const lit = open.filter(Number.isFinite).sort((a, b) => a - b);
    if (lit.length) sclera = (lit[Math.floor(lit.length * 0.9)] - skin) / Math.max(skin, 16);
  }
  return { openness, width: w, area: Math.abs(area), weight: seen, crease, lidPixels, sclera };
}

/** The brow's lower edge, at the face-frame x of a point (linear between the mesh's brow points). */
function browLowerY(f: FaceFrame, s: Side, x: number): P3 {
  const low = s.brow.map(([, l]) => f.at(l)).sort((a, b) => a[0] - b[0]);
  if (x <= low[0][0]) return low[0];
  for (let i = 1; i < low.length; i++) {
    if (x <= low[i][0]) return lerp(low[i - 1], low[i], (x - low[i - 1][0]) / (low[i][0] - low[i - 1][0] || 1));
  }
  return low[low.length - 1];
}

/**
 * A double eyelid shows a crease: a dark line above the lid margin, below the brow, with lighter lid
 * skin on both sides. Luma profiles run from the upper lid margin up to the brow's lower edge over the
 * middle of the eye; the crease measure is the deepest such valley between 12% and 65% of the way up,
 * over the skin's luma. (A single lid has no line there; hooded lids and heavy shadow read as weak ones.)
 */
function measureCrease(f: FaceFrame, s: Side, luma: (x: number, y: number) => number) {
  const N = 28, T0 = 0.12, T1 = 0.65, H = 4;
  const depths: number[] = [];
  let lidPixels = 0;
  for (const [u] of s.lids.slice(1, 4)) {
    const lid = f.at(u);
    const brow = browLowerY(f, s, lid[0]);
    const top: P3 = [lid[0], brow[1], (lid[2] + brow[2]) / 2];
    const [ax, ay] = f.toImage(lid), [bx, by] = f.toImage(top);
    lidPixels += Math.hypot(bx - ax, by - ay) / 3;
    const prof: number[] = [];
    for (let k = 0; k <= N; k++) prof.push(luma(...f.toImage(lerp(lid, top, k / N))));
    if (prof.some((v) => !Number.isFinite(v))) continue;
    const skin = median(prof.slice(Math.round(N * 0.3)));
    let best = 0;
    for (let k = Math.ceil(T0 * N); k <= Math.floor(T1 * N); k++) {
      const below = Math.max(...prof.slice(Math.max(0, k - H), k));
      const above = Math.max(...prof.slice(k + 1, k + 1 + H));
      best = Math.max(best, (Math.min(below, above) - prof[k]) / Math.max(skin, 16));
    }
    depths.push(best);
  }
  return { crease: depths.length ? depths.reduce((a, b) => a + b, 0) / depths.length : NaN, lidPixels };
}

/** Arch of a polyline: greatest distance above its chord (face-frame y up is negative), over the chord length. */
function arch(pts: readonly P3[]): number {
  const a = pts[0], b = pts[pts.length - 1];
  const cx = b[0] - a[0], cy = b[1] - a[1];
  const L = Math.hypot(cx, cy) || 1e-6;
  let best = -Infinity;
  // Signed distance, positive above the chord (toward the forehead).
  for (const p of pts.slice(1, -1)) best = Math.max(best, ((p[0] - a[0]) * cy - (p[1] - a[1]) * cx) / L * Math.sign(cx || 1));
  return best / L;
}

function measureBrow(f: FaceFrame, s: Side, e: EyeMeasures, luma?: (x: number, y: number) => number): BrowMeasures {
  const ups = s.brow.map(([u]) => f.at(u)), lows = s.brow.map(([, l]) => f.at(l));
  const centre = ups.map((u, i) => lerp(u, lows[i], 0.5));
  const thick = ups.map((u, i) => len(sub(u, lows[i])));
  let meshLength = 0;
  for (let i = 1; i < centre.length; i++) meshLength += len(sub(centre[i], centre[i - 1]));
  const out: BrowMeasures = { contrast: NaN, arch: NaN, meshArch: arch(centre), length: NaN, meshLength: meshLength / e.width, reach: NaN, weight: e.weight };
  if (!luma) return out;
  // Points along the brow line: t in [0, 1] from the temple end to the inner end (beyond: extrapolated),
  // and v across it in half-thicknesses (+ toward the forehead).
  const point = (t: number, v: number): P3 => {
    const tt = Math.max(0, Math.min(1, t)) * (centre.length - 1);
    const i = Math.min(centre.length - 2, Math.floor(tt));
    const c0 = lerp(centre[i], centre[i + 1], tt - i);
    const th = thick[i] + (thick[i + 1] - thick[i]) * (tt - i);
    // Beyond the ends, continue along the end segment.
    const seg = t < 0 ? sub(centre[1], centre[0]) : t > 1 ? sub(centre[centre.length - 1], centre[centre.length - 2]) : sub(centre[i + 1], centre[i]);
    const sl = len(seg) || 1e-6;
    const ext = t < 0 ? t * (centre.length - 1) : t > 1 ? (t - 1) * (centre.length - 1) : 0;
    const c: P3 = [c0[0] + seg[0] * ext, c0[1] + seg[1] * ext, c0[2]];
    // Normal in the x-y plane, pointing up (negative y).
    let nx = seg[1] / sl, ny = -seg[0] / sl;
    if (ny > 0) { nx = -nx; ny = -ny; }
    return [c[0] + (nx * v * th) / 2, c[1] + (ny * v * th) / 2, c[2]];
  };
  const along = (t: number, v: number) => luma(...f.toImage(point(t, v)));
  // The mesh places the brow only roughly (a frown lowers it, thin brows sit inside its band), so the
  // brow's own line is found in the pixels: at each step along it, the darkest point across -2.5..+1.5
  // half-thicknesses (a brow sits below the mesh's more often than above it, and hair may lie above),
  // kept within one half-thickness of the brow's typical offset. Beyond the temple end the line runs a
  // quarter of the brow further (brows longer than the mesh's), no more: hair lies there.
  const T = 24, K0 = -6, K1 = T + 6;
  const V: number[] = [];
  for (let v = -2.5; v <= 1.5001; v += 0.25) V.push(v);
  const prof = (t: number) => {
    const raw = V.map((v) => along(t, v));
    return raw.map((x, i) => (raw[Math.max(0, i - 1)] + 2 * x + raw[Math.min(raw.length - 1, i + 1)]) / 4);
  };
  const profiles = new Map<number, number[]>();
  for (let k = K0; k <= K1; k++) profiles.set(k, prof(k / T));
  const argmin = (p: number[], lo: number, hi: number) => {
    let best = -1;
    p.forEach((x, i) => { if (V[i] >= lo && V[i] <= hi && Number.isFinite(x) && (best < 0 || x < p[best])) best = i; });
    return best < 0 ? 0 : V[best];
  };
  const typical = median(Array.from({ length: T + 1 }, (_, k) => k).filter((k) => k >= 0.2 * T && k <= 0.8 * T).map((k) => argmin(profiles.get(k)!, -2.5, 1.5)));
  const vAt = new Map<number, number>();
  for (let k = K0; k <= K1; k++) vAt.set(k, argmin(profiles.get(k)!, typical - 1, typical + 1));
  const inner = Array.from({ length: T + 1 }, (_, k) => k).filter((k) => k >= 0.1 * T && k <= 0.9 * T);
  // Skin: bands just above and just below the found line; the lighter of the two (hair, a scarf or eye
  // shadow can darken one side).
  const band = (dv: number[]) => median(inner.flatMap((k) => dv.map((d) => along(k / T, vAt.get(k)! + d))));
  const skin = Math.max(band([1.8, 2.3]), band([-1.8, -2.3]));
  const lineLuma = (k: number) => (along(k / T, vAt.get(k)! - 0.25) + along(k / T, vAt.get(k)!) + along(k / T, vAt.get(k)! + 0.25)) / 3;
  out.contrast = (skin - median(inner.map(lineLuma))) / Math.max(skin, 16);
  // Length: walk out from the brow's middle along its line while it stays at least half as dark as the middle.
  const dark = (k: number) => (skin - lineLuma(k)) / Math.max(skin, 16);
  const darkS = (k: number) => (dark(Math.max(K0, k - 1)) + dark(k) + dark(Math.min(K1, k + 1))) / 3;
  const mid = median(inner.filter((k) => k >= 0.3 * T && k <= 0.8 * T).map(dark));
  let k0 = Math.round(0.55 * T), k1 = k0;
  while (k0 > K0 && darkS(k0 - 1) >= mid / 2) k0--;
  while (k1 < K1 && darkS(k1 + 1) >= mid / 2) k1++;
  out.length = mid > 0 ? (((k1 - k0) / T) * meshLength) / e.width : 0;
  const t0 = k0 / T;
  // Arch over the brow as found (its tail included, the part toward the nose left out).
  const span = Array.from({ length: Math.min(k1, T) - k0 + 1 }, (_, i) => k0 + i);
  out.arch = span.length >= 5 ? arch(span.map((k) => point(k / T, vAt.get(k)!))) : arch(inner.map((k) => point(k / T, vAt.get(k)!)));
  const end = point(mid > 0 ? t0 : 0, mid > 0 ? vAt.get(k0)! : 0);
  const corner = f.at(s.corners[0]), ala = f.at(s.ala);
  const outward = Math.sign(corner[0] - f.at(s.corners[1])[0]) || 1;
  const lineX = corner[0] + ((corner[0] - ala[0]) * (end[1] - corner[1])) / (corner[1] - ala[1] || -1e-6);
  out.reach = ((end[0] - lineX) * outward) / e.width;
  return out;
}

/** Inner-lip pairs (upper, lower) across the opening. */
const MOUTH_PAIRS = [[81, 178], [82, 87], [13, 14], [312, 317], [311, 402]] as const;

function measureMouth(f: FaceFrame) {
  const L = f.at(61), R = f.at(291);
  const width = len(sub(R, L)) || 1e-6;
  // Inner lips, paired across the opening.
  const gap = Math.max(0, MOUTH_PAIRS.reduce((a, [u, l]) => a + f.at(l)[1] - f.at(u)[1], 0) / MOUTH_PAIRS.length);
  const centreY = (f.at(13)[1] + f.at(14)[1]) / 2;
  return { gap: gap / width, width, cornerLift: (centreY - (L[1] + R[1]) / 2) / width };
}

function measureNose(f: FaceFrame) {
  const nasion = f.at(168), tip = f.at(1), subnasale = f.at(2);
  // The columella runs from the subnasale forward (-z) to the tip; its rise (-y) over its run is the upturn.
  const col = sub(tip, subnasale);
  const upturn = (Math.atan2(-col[1], -col[2]) * 180) / Math.PI;
  // Bridge bulge: how far the bridge points (197, 195, 5) stand in front of (more -z than) the line nasion -> tip, in the y-z plane.
  const ny = tip[1] - nasion[1], nz = tip[2] - nasion[2];
  const nl = Math.hypot(ny, nz) || 1e-6;
  const hump = Math.max(...[197, 195, 5].map((i) => { const p = f.at(i); return ((p[1] - nasion[1]) * nz - (p[2] - nasion[2]) * ny) / nl; })) / nl;
  const tipW = len(sub(f.at(457), f.at(237)));
  const alarW = len(sub(f.at(358), f.at(129))) || 1e-6;
  return { upturn, hump, tipWidth: tipW / alarW, length: len(sub(subnasale, nasion)) };
}

function measureShape(f: FaceFrame) {
  const w = (a: number, b: number) => Math.abs(f.at(b)[0] - f.at(a)[0]);
  return { length: f.at(152)[1] - f.at(10)[1], forehead: w(54, 284), jaw: w(172, 397), chin: w(149, 378) };
}
