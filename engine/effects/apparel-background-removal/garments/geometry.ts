/** Small raster helpers for garment parsing: convex hulls, polygons, ellipses and connected components. */
import type { Pt } from './body-frame.ts';

/** Convex hull (Andrew's monotone chain), counter-clockwise. */
export function convexHull(points: Pt[]): Pt[] {
  const p = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (p.length < 3) return p;
  const cross = (o: Pt, a: Pt, b: Pt) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Pt[] = [], upper: Pt[] = [];
  for (const q of p) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop(); lower.push(q); }
  for (const q of p.reverse()) { while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop(); upper.push(q); }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** 1 inside the polygon (even-odd rule, pixel centres), 0 outside. */
export function fillPolygon(poly: Pt[], width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  if (poly.length < 3) return out;
  const y0 = Math.max(0, Math.floor(Math.min(...poly.map((p) => p.y)))), y1 = Math.min(height - 1, Math.ceil(Math.max(...poly.map((p) => p.y))));
  for (let y = y0; y <= y1; y++) {
    const cy = y + 0.5, xs: number[] = [];
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const a = poly[i], b = poly[j];
      if ((a.y > cy) !== (b.y > cy)) xs.push(a.x + ((cy - a.y) / (b.y - a.y)) * (b.x - a.x));
    }
    xs.sort((a, b) => a - b);
    for (let k = 0; k + 1 < xs.length; k += 2) {
      const from = Math.max(0, Math.ceil(xs[k] - 0.5)), to = Math.min(width - 1, Math.floor(xs[k + 1] - 0.5));
      for (let x = from; x <= to; x++) out[y * width + x] = 1;
    }
  }
  return out;
}

/** Labels 4-connected components of mask > 0; returns the label per pixel (0 = none) and sizes (index = label). */
export function components(mask: Uint8Array, width: number, height: number): { labels: Int32Array; sizes: number[] } {
  const labels = new Int32Array(width * height);
  const sizes = [0];
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || labels[s]) continue;
    const id = sizes.length;
    let size = 0;
    labels[s] = id; stack.push(s);
    while (stack.length) {
      const i = stack.pop()!;
      size++;
      const x = i % width;
      if (x > 0 && mask[i - 1] && !labels[i - 1]) { labels[i - 1] = id; stack.push(i - 1); }
      if (x < width - 1 && mask[i + 1] && !labels[i + 1]) { labels[i + 1] = id; stack.push(i + 1); }
      if (i >= width && mask[i - width] && !labels[i - width]) { labels[i - width] = id; stack.push(i - width); }
      if (i + width < mask.length && mask[i + width] && !labels[i + width]) { labels[i + width] = id; stack.push(i + width); }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}
