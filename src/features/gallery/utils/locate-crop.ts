/**
 * Where a trimmed cutout (return_form=crop) lies in its photo: the offset at which the cutout's opaque pixels
 * match the photo's. The engine copies the subject's colours, so a few dozen opaque samples decide it; a
 * small tolerance absorbs two JPEG decoders rounding differently.
 */
import type { PixelData } from './blank-image.ts';

export interface Placement { x: number; y: number; width: number; height: number }

export function locateCrop(photo: PixelData, cutout: PixelData, tolerance = 14): Placement | undefined {
  const { width: W, height: H } = photo;
  const { width: w, height: h } = cutout;
  if (w > W || h > H) return undefined;
  if (w === W && h === H) return { x: 0, y: 0, width: w, height: h };
  // Opaque samples spread over the cutout, far from its soft edges.
  const samples: [number, number, number, number, number][] = [];
  const step = Math.max(1, Math.floor(Math.sqrt((w * h) / 400)));
  for (let y = 0; y < h && samples.length < 400; y += step) {
    for (let x = (y / step) % 2 ? Math.floor(step / 2) : 0; x < w; x += step) {
      const i = (y * w + x) * 4;
      if (cutout.data[i + 3] === 255) samples.push([x, y, cutout.data[i], cutout.data[i + 1], cutout.data[i + 2]]);
    }
  }
  if (samples.length < 8) return undefined;
  // Most informative first: samples far from the mean colour reject wrong offsets sooner.
  const mean = [0, 1, 2].map((c) => samples.reduce((s, p) => s + p[2 + c], 0) / samples.length);
  samples.sort((a, b) => dist(b, mean) - dist(a, mean));
  const use = samples.slice(0, 64);
  const allowedMisses = 3;
  for (let oy = 0; oy <= H - h; oy++) {
    for (let ox = 0; ox <= W - w; ox++) {
      let misses = 0;
      for (const [x, y, r, g, b] of use) {
        const j = ((oy + y) * W + ox + x) * 4;
        if (Math.abs(photo.data[j] - r) > tolerance || Math.abs(photo.data[j + 1] - g) > tolerance || Math.abs(photo.data[j + 2] - b) > tolerance) {
          if (++misses > allowedMisses) break;
        }
      }
      if (misses <= allowedMisses) return { x: ox, y: oy, width: w, height: h };
    }
  }
  return undefined;
}

const dist = (p: [number, number, number, number, number], m: number[]) => Math.abs(p[2] - m[0]) + Math.abs(p[3] - m[1]) + Math.abs(p[4] - m[2]);
