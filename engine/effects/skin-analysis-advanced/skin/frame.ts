/**
 * The frame every skin measure works in: the face cut out of the photo and resampled to a fixed number of
 * pixels per millimetre, the millimetre taken from the iris (its visible diameter is about 11.7 mm in
 * adults and varies little between people, Hashemi et al. 2012), so that a threshold written in mm or
 * per cm² means the same on a 300 px face and on a 3000 px one. Faces sharper than the working scale are
 * scaled down to it; smaller ones are kept at their own scale (nothing is invented by upsampling).
 */
import sharp from 'sharp';
import type { RasterImage } from '../../../image/raster.ts';
import type { Rect } from '../../../image/rect.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { LEFT_IRIS, RIGHT_IRIS } from '../../../vision/faces/landmarks.ts';
import { WORK_PX_PER_MM } from '../tuning.ts';

export const IRIS_MM = 11.7;
/** A face is about 140 mm from cheek to cheek (mesh 234-454); the check on the iris scale. */
export const FACE_MM = 140;

export type P2 = [number, number];

export interface Frame {
  /** Image pixels per mm, from the irises. */
  pxPerMm: number;
  /** Frame pixels per mm (≤ WORK_PX_PER_MM). */
  s: number;
  /** Frame pixel = (image pixel - win origin) * k. */
  k: number;
  /** The window of the image the frame covers. */
  win: Rect;
  w: number; h: number;
  /** RGB, interleaved, w x h. */
  rgb: Uint8Array;
  /** The 478 mesh points in frame pixels. */
  mesh: P2[];
  /** Head roll, radians (the eye line's angle), for orientation tests. */
  roll: number;
  /** Iris diameter in image pixels (the scale's evidence). */
  irisPx: number;
}

const dist = (a: readonly number[], b: readonly number[]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

/** Iris diameter in image pixels: twice the mean centre-to-ring distance, the two eyes averaged (the wider if one is foreshortened). */
export function irisDiameter(mesh: readonly (readonly number[])[]): number {
  const d = (iris: { center: number; ring: number[] }) => (2 * iris.ring.reduce((s, i) => s + dist(mesh[i], mesh[iris.center]), 0)) / iris.ring.length;
  const r = d(RIGHT_IRIS), l = d(LEFT_IRIS);
  // A turned head narrows the far iris; the nearer is the better ruler.
  return Math.max(r, l) > 1.25 * Math.min(r, l) ? Math.max(r, l) : (r + l) / 2;
}

/** Image px per mm: from the iris, unless it disagrees with the face width by more than 40 % (a failed iris fit). */
export function pixelsPerMm(mesh: readonly (readonly number[])[]): { pxPerMm: number; irisPx: number } {
  const irisPx = irisDiameter(mesh);
  const byIris = irisPx / IRIS_MM, byFace = dist(mesh[234], mesh[454]) / FACE_MM;
  const ok = byIris > byFace / 1.4 && byIris < byFace * 1.4;
  return { pxPerMm: ok ? byIris : byFace, irisPx };
}

/** The frame of one meshed face: its box grown by 6 mm (room for a blob's ring), resampled to at most WORK_PX_PER_MM. */
export async function makeFrame(image: RasterImage, face: Face, workPxPerMm = WORK_PX_PER_MM): Promise<Frame> {
  const m = face.mesh;
  if (!m || m.length < 478) throw new Error('makeFrame: the face has no mesh');
  const { pxPerMm, irisPx } = pixelsPerMm(m);
  const grow = 6 * pxPerMm;
  const xs = m.map((p) => p[0]), ys = m.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs) - grow)), y0 = Math.max(0, Math.floor(Math.min(...ys) - grow));
  const x1 = Math.min(image.width, Math.ceil(Math.max(...xs) + grow)), y1 = Math.min(image.height, Math.ceil(Math.max(...ys) + grow));
  const win: Rect = { x0, y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
  const k = Math.min(1, workPxPerMm / pxPerMm);
  const w = Math.max(1, Math.round(win.w * k)), h = Math.max(1, Math.round(win.h * k));
  let img = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract({ left: win.x0, top: win.y0, width: win.w, height: win.h });
  if (image.channels === 4) img = img.removeAlpha();
  if (k < 1) img = img.resize(w, h, { kernel: 'lanczos3', fit: 'fill' });
  const rgb = new Uint8Array(await img.raw().toBuffer());
  const kx = w / win.w, ky = h / win.h;
  const mesh = m.map((p) => [(p[0] - x0) * kx, (p[1] - y0) * ky] as P2);
  const roll = Math.atan2(m[263][1] - m[33][1], m[263][0] - m[33][0]);
  return { pxPerMm, s: pxPerMm * k, k, win, w, h, rgb, mesh, roll, irisPx };
}

/** A frame point back in image pixels. */
export const toImage = (f: Frame, x: number, y: number): P2 => [f.win.x0 + x / f.k, f.win.y0 + y / f.k];

/** Bilinear resampling of a plane (used to bring full-resolution masks to the frame). */
export function resamplePlane(src: Float32Array, sw: number, sh: number, dw: number, dh: number): Float32Array {
  const out = new Float32Array(dw * dh);
  const fx = sw / dw, fy = sh / dh;
  // The columns' taps and weights once, not per row.
  const X0 = new Int32Array(dw), X1 = new Int32Array(dw), TX = new Float64Array(dw);
  for (let x = 0; x < dw; x++) {
    const sx = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5));
    X0[x] = Math.floor(sx); X1[x] = Math.min(sw - 1, X0[x] + 1); TX[x] = sx - X0[x];
  }
  for (let y = 0; y < dh; y++) {
    const sy = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(sy), y1 = Math.min(sh - 1, y0 + 1), ty = sy - y0;
    const r0 = y0 * sw, r1 = y1 * sw;
    for (let x = 0, o = y * dw; x < dw; x++, o++) {
      const x0 = X0[x], x1 = X1[x], tx = TX[x];
      const a = src[r0 + x0] + (src[r0 + x1] - src[r0 + x0]) * tx;
      const b = src[r1 + x0] + (src[r1 + x1] - src[r1 + x0]) * tx;
      out[o] = a + (b - a) * ty;
    }
  }
  return out;
}
