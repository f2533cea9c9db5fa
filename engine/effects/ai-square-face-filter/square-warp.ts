/**
 * The face oval warped toward a rounded square: in the face's own frame (centred on the oval, turned by
 * its roll), every direction's oval radius maps to a superellipse's radius of the same half-width and
 * half-height. Inside about half the oval nothing moves (eyes, nose and mouth stay where they are), the
 * change grows to full at the oval and fades out again by 1.5 times it, so the warp has no seam.
 * The square's four sides sit at the oval's own extent on each side: a turned face's oval is lopsided about
 * its centroid, and one symmetric square would magnify the near side (the nose of a profile) far out.
 */
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { FACE_OVAL } from '../../vision/faces/landmarks.ts';
import { INNER, MAX_SCALE, OUTER, SQUARENESS } from './tuning.ts';

const smoothstep = (a: number, b: number, x: number) => { const t = Math.min(1, Math.max(0, (x - a) / (b - a))); return t * t * (3 - 2 * t); };

export interface FaceFrame {
  cx: number; cy: number; cos: number; sin: number;
  /** Largest half-width and half-height. */
  a: number; b: number;
  /** The oval's extent on each side of the centre, in the face frame. */
  left: number; right: number; top: number; bottom: number;
  oval: { angle: number; r: number }[];
}

/** The frame of a face from its mesh: centre, roll, half-width and half-height, and the oval in polar form. */
export function faceFrame(mesh: readonly (readonly number[])[], rollDeg: number): FaceFrame {
  const pts = FACE_OVAL.map((i) => mesh[i]);
  const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length, cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
  const roll = (rollDeg * Math.PI) / 180, cos = Math.cos(roll), sin = Math.sin(roll);
  const local = pts.map((p) => { const dx = p[0] - cx, dy = p[1] - cy; return [dx * cos + dy * sin, -dx * sin + dy * cos]; });
  const xs = local.map((p) => p[0]), ys = local.map((p) => p[1]);
  const left = Math.max(1, -Math.min(...xs)), right = Math.max(1, Math.max(...xs)), top = Math.max(1, -Math.min(...ys)), bottom = Math.max(1, Math.max(...ys));
  const oval = local.map(([x, y]) => ({ angle: Math.atan2(y, x), r: Math.hypot(x, y) })).sort((p, q) => p.angle - q.angle);
  return { cx, cy, cos, sin, a: Math.max(left, right), b: Math.max(top, bottom), left, right, top, bottom, oval };
}

/** The oval's radius in direction `angle` (face frame), interpolated between its points. */
export function ovalRadius(f: FaceFrame, angle: number): number {
  const o = f.oval;
  for (let i = 0; i < o.length; i++) {
    const p = o[i], q = o[(i + 1) % o.length];
    const span = i === o.length - 1 ? q.angle + 2 * Math.PI - p.angle : q.angle - p.angle;
    let d = angle - p.angle;
    if (d < 0) d += 2 * Math.PI;
    if (d <= span) return p.r + ((q.r - p.r) * d) / span;
  }
  return o[0].r;
}

export const squareRadius = (f: FaceFrame, angle: number) => {
  const c = Math.cos(angle), s = Math.sin(angle);
  const a = c >= 0 ? f.right : f.left, b = s >= 0 ? f.bottom : f.top;
  return (Math.abs(c / a) ** SQUARENESS + Math.abs(s / b) ** SQUARENESS) ** (-1 / SQUARENESS);
};

/** Per direction, the square's radius and the oval's over it: what sourceOf needs, in BINS directions. */
const BINS = 2048;
export interface RayTable { rs: Float32Array; k: Float32Array }

export function rayTable(f: FaceFrame): RayTable {
  const rs = new Float32Array(BINS + 1), k = new Float32Array(BINS + 1);
  for (let i = 0; i <= BINS; i++) {
    const angle = -Math.PI + (2 * Math.PI * i) / BINS;
    const r = Math.min(squareRadius(f, angle), MAX_SCALE * ovalRadius(f, angle));
    rs[i] = r; k[i] = ovalRadius(f, angle) / r;
  }
  return { rs, k };
}

/** Where the output pixel (x, y) takes its colour from, in image pixels (`table` makes it fast, same result within a bin). */
export function sourceOf(f: FaceFrame, x: number, y: number, table?: RayTable): [number, number] {
  const dx = x - f.cx, dy = y - f.cy;
  const lx = dx * f.cos + dy * f.sin, ly = -dx * f.sin + dy * f.cos;
  const r = Math.hypot(lx, ly);
  if (r === 0) return [x, y];
  const angle = Math.atan2(ly, lx);
  let rs: number, k: number;
  if (table) {
    const t = ((angle + Math.PI) / (2 * Math.PI)) * BINS, i = Math.min(BINS - 1, Math.floor(t)), w = t - i;
    rs = table.rs[i] + (table.rs[i + 1] - table.rs[i]) * w;
    k = table.k[i] + (table.k[i + 1] - table.k[i]) * w;
  } else {
    rs = Math.min(squareRadius(f, angle), MAX_SCALE * ovalRadius(f, angle));
    k = ovalRadius(f, angle) / rs;
  }
  const t = r / rs;
  if (t <= INNER || t >= OUTER) return [x, y];
  const w = t <= 1 ? smoothstep(INNER, 1, t) : 1 - smoothstep(1, OUTER, t);
  const s = 1 + (k - 1) * w;
  return [f.cx + (dx * s), f.cy + (dy * s)];
}

/** Warps the face in `pixels` (a copy of `image`'s), reading from `image`; returns the box it rewrote. */
export function warpFace(image: RasterImage, pixels: Buffer, f: FaceFrame): Rect {
  const { width, height, channels: ch } = image;
  const reach = OUTER * Math.max(f.a, f.b) * Math.SQRT2; // rs never passes the square's corner
  const table = rayTable(f);
  const x0 = Math.max(0, Math.floor(f.cx - reach)), x1 = Math.min(width, Math.ceil(f.cx + reach));
  const y0 = Math.max(0, Math.floor(f.cy - reach)), y1 = Math.min(height, Math.ceil(f.cy + reach));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const [sx, sy] = sourceOf(f, x + 0.5, y + 0.5, table);
      if (sx === x + 0.5 && sy === y + 0.5) continue;
      bilinear(image, sx - 0.5, sy - 0.5, pixels, (y * width + x) * ch);
    }
  }
  return { x0, y0, w: x1 - x0, h: y1 - y0 };
}

function bilinear(image: RasterImage, x: number, y: number, out: Buffer, o: number) {
  const { width, height, channels: ch, data } = image;
  const cx = Math.min(width - 1, Math.max(0, x)), cy = Math.min(height - 1, Math.max(0, y));
  const xi = Math.min(width - 2, Math.floor(cx)), yi = Math.min(height - 2, Math.floor(cy));
  const fx = cx - xi, fy = cy - yi;
  const i00 = (yi * width + xi) * ch, i10 = i00 + ch, i01 = i00 + width * ch, i11 = i01 + ch;
  for (let c = 0; c < ch; c++) {
    out[o + c] = Math.round((data[i00 + c] * (1 - fx) + data[i10 + c] * fx) * (1 - fy) + (data[i01 + c] * (1 - fx) + data[i11 + c] * fx) * fy);
  }
}
