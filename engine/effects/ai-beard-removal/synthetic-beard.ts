/**
 * A short beard drawn onto a clean-shaven face, for tests and quality scripts: hairs as short anti-aliased
 * strokes of a hair colour, growing down (and out, on the upper lip) over the mesh's beard and moustache
 * zones, lips left bare. It lets beard removal be checked on photos that are free to ship and on faces
 * whose clean skin is known (the photo before drawing).
 */
import type { RasterImage } from '../../image/raster.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { faceRegions } from '../../vision/regions/face-regions.ts';
import { meshFaceWidth } from '../../vision/regions/skin-mask.ts';

export interface StubbleOptions {
  /** Hairs per square face-width-hundredth (0.01 fw)^2: about 0.5 reads as a short dense beard. */
  density?: number;
  /** Hair length and width, face widths. */
  length?: number;
  width?: number;
  /** sRGB hair colour and its opacity. */
  rgb?: readonly [number, number, number];
  opacity?: number;
  seed?: number;
}

/**
 * Draws the beard in place; returns the drawn zone (1 where hairs may lie, image-sized) so a check can
 * tell beard pixels from the rest.
 */
export function drawStubble(image: RasterImage, face: Face, o: StubbleOptions = {}): Uint8Array {
  const mesh = face.mesh;
  const zone = new Uint8Array(image.width * image.height);
  if (!mesh) return zone;
  const fw = meshFaceWidth(mesh);
  const { beard, moustache } = faceRegions(face, image, undefined, ['beard', 'moustache']);
  const len = (o.length ?? 0.03) * fw, half = Math.max(0.5, ((o.width ?? 0.005) * fw) / 2);
  const [r, g, b] = o.rgb ?? [48, 34, 26];
  const opacity = o.opacity ?? 0.85;
  let seed = (o.seed ?? 7) >>> 0;
  const rand = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 4294967296; };
  // Only inside the face's outline and the upper lip: the zone's reach under the jaw would draw over the neck's edge.
  const points: [number, number, boolean][] = [];
  for (let i = 0; i < zone.length; i++) {
    const m = moustache!.data[i] >= 128, bd = beard!.data[i] >= 160;
    if (!m && !bd) continue;
    zone[i] = 1;
    points.push([i % image.width, (i / image.width) | 0, m]);
  }
  const count = Math.round((points.length / (0.01 * fw) ** 2) * (o.density ?? 0.5));
  const cover = new Float32Array(zone.length);
  const [mx] = mesh[1];
  for (let k = 0; k < count && points.length; k++) {
    const [x0, y0, onLip] = points[(rand() * points.length) | 0];
    // Down, fanned outward on the upper lip, with some scatter.
    const out = onLip ? Math.sign(x0 - mx) * 0.6 : 0;
    const ang = Math.PI / 2 - out + (rand() - 0.5) * 0.9;
    const dx = Math.cos(ang) * len * (0.6 + 0.4 * rand()), dy = Math.sin(ang) * len * (0.6 + 0.4 * rand());
    stroke(cover, image.width, image.height, x0, y0, x0 + dx, y0 + dy, half, zone);
  }
  for (let i = 0; i < cover.length; i++) {
    const a = Math.min(1, cover[i]) * opacity;
    if (a <= 0) continue;
    const j = i * image.channels;
    image.data[j] = Math.round(image.data[j] * (1 - a) + r * a);
    image.data[j + 1] = Math.round(image.data[j + 1] * (1 - a) + g * a);
    image.data[j + 2] = Math.round(image.data[j + 2] * (1 - a) + b * a);
  }
  return zone;
}

/** Adds an anti-aliased line of half-width `half` into `cover`, within `zone`. */
function stroke(cover: Float32Array, w: number, h: number, x0: number, y0: number, x1: number, y1: number, half: number, zone: Uint8Array): void {
  const xa = Math.max(0, Math.floor(Math.min(x0, x1) - half - 1)), xb = Math.min(w - 1, Math.ceil(Math.max(x0, x1) + half + 1));
  const ya = Math.max(0, Math.floor(Math.min(y0, y1) - half - 1)), yb = Math.min(h - 1, Math.ceil(Math.max(y0, y1) + half + 1));
  const vx = x1 - x0, vy = y1 - y0, l2 = Math.max(1e-6, vx * vx + vy * vy);
  for (let y = ya; y <= yb; y++) {
    for (let x = xa; x <= xb; x++) {
      const i = y * w + x;
      if (!zone[i]) continue;
      const px = x + 0.5 - x0, py = y + 0.5 - y0;
      const t = Math.max(0, Math.min(1, (px * vx + py * vy) / l2));
      const d = Math.hypot(px - t * vx, py - t * vy);
      const c = Math.max(0, Math.min(1, half + 0.5 - d));
      if (c > 0) cover[i] = Math.max(cover[i], c);
    }
  }
}
