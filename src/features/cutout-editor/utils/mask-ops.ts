/**
 * The cutout editor's edits, on an alpha mask (0..255, one byte a pixel) beside the photo's RGBA pixels at the
 * same size. Pure functions on typed arrays, so they run the same in the browser and in vitest.
 */

export interface Mask {
  alpha: Uint8Array;
  width: number;
  height: number;
}

/** RGBA pixels, 4 bytes a pixel, as ImageData holds them. */
export interface Pixels {
  data: Uint8ClampedArray | Uint8Array;
  width: number;
  height: number;
}

/** The box an edit changed, in mask pixels (x1, y1 exclusive); null when nothing changed. */
export interface Dirty {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Dab {
  x: number;
  y: number;
  radius: number;
  mode: 'erase' | 'restore';
  /**
   * Edge-aware: only pixels whose colour is close to the colour under the brush centre change, so a stroke
   * along an edge stays on its side of it. Tolerance is a distance in RGB (0..441).
   */
  smart?: { photo: Pixels; tolerance: number };
}

const colourDistance = (d: ArrayLike<number>, i: number, r: number, g: number, b: number) => {
  const dr = d[i] - r, dg = d[i + 1] - g, db = d[i + 2] - b;
  return Math.sqrt(dr * dr + dg * dg + db * db);
};

/**
 * One dab of the brush: a disc with a 1.5 px soft rim (erase lowers alpha, restore raises it; never the other
 * way, so overlapping dabs of one stroke do not undo each other). Smart mode weighs each pixel by how close its
 * colour is to the centre's: full effect within the tolerance, fading to none at 1.5 times it.
 */
export function paintDab(mask: Mask, dab: Dab): Dirty | null {
  const { alpha, width, height } = mask;
  const r = Math.max(0.5, dab.radius);
  const x0 = Math.max(0, Math.floor(dab.x - r - 1)), x1 = Math.min(width, Math.ceil(dab.x + r + 1));
  const y0 = Math.max(0, Math.floor(dab.y - r - 1)), y1 = Math.min(height, Math.ceil(dab.y + r + 1));
  if (x0 >= x1 || y0 >= y1) return null;
  let centre: [number, number, number] | undefined;
  const smart = dab.smart;
  if (smart) {
    const cx = Math.min(width - 1, Math.max(0, Math.round(dab.x))), cy = Math.min(height - 1, Math.max(0, Math.round(dab.y)));
    const i = (cy * width + cx) * 4;
    centre = [smart.photo.data[i], smart.photo.data[i + 1], smart.photo.data[i + 2]];
  }
  const soft = 1.5;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const d = Math.hypot(x + 0.5 - dab.x, y + 0.5 - dab.y);
      let w = d <= r - soft ? 1 : d >= r ? 0 : (r - d) / soft;
      if (w <= 0) continue;
      if (smart && centre) {
        const dist = colourDistance(smart.photo.data, (y * width + x) * 4, centre[0], centre[1], centre[2]);
        const t = smart.tolerance;
        w *= dist <= t ? 1 : dist >= t * 1.5 ? 0 : 1 - (dist - t) / (t * 0.5);
        if (w <= 0) continue;
      }
      const i = y * width + x;
      const a = alpha[i];
      alpha[i] = dab.mode === 'erase' ? Math.min(a, Math.round(a * (1 - w))) : Math.max(a, Math.round(a + (255 - a) * w));
    }
  }
  return { x0, y0, x1, y1 };
}

/** Dabs along a segment, a third of the radius apart, so a fast stroke leaves no gaps. */
export function paintLine(mask: Mask, from: { x: number; y: number }, dab: Dab): Dirty | null {
  const len = Math.hypot(dab.x - from.x, dab.y - from.y);
  const steps = Math.max(1, Math.ceil(len / Math.max(1, dab.radius / 3)));
  let box: Dirty | null = null;
  for (let s = 1; s <= steps; s++) {
    const t = s / steps;
    box = union(box, paintDab(mask, { ...dab, x: from.x + (dab.x - from.x) * t, y: from.y + (dab.y - from.y) * t }));
  }
  return box;
}

export const union = (a: Dirty | null, b: Dirty | null): Dirty | null =>
  !a ? b : !b ? a : { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };

/** Above this alpha a pixel belongs to the cutout when pieces are found (the soft rim joins no two pieces). */
const SOLID = 128;

/**
 * The pixels of one region at (x, y), 4-connected, as a 0/1 map: the piece of the cutout there (solid pixels)
 * or, with `similar`, the pixels of a colour close to the clicked one (a colour flood fill), which splits a
 * piece holding two things (a tiger and the leaves it lies on). Where the click lands outside the cutout, the
 * region is the colour-similar area of the photo (so a dropped part can be brought back by a click).
 */
export function regionAt(mask: Mask, photo: Pixels, x: number, y: number, similar?: { tolerance: number }): { region: Uint8Array; box: Dirty } | null {
  const { alpha, width, height } = mask;
  const sx = Math.floor(x), sy = Math.floor(y);
  if (sx < 0 || sy < 0 || sx >= width || sy >= height) return null;
  const start = sy * width + sx;
  const inside = alpha[start] >= SOLID;
  const d = photo.data;
  const si = start * 4;
  const [r, g, b] = [d[si], d[si + 1], d[si + 2]];
  const tolerance = similar?.tolerance ?? (inside ? Infinity : 40);
  const takes = (i: number) => (inside ? alpha[i] >= SOLID : alpha[i] < SOLID) && (tolerance === Infinity || colourDistance(d, i * 4, r, g, b) <= tolerance);
  const region = new Uint8Array(width * height);
  const stack = new Int32Array(width * height);
  let top = 0;
  stack[top++] = start;
  region[start] = 1;
  let x0 = sx, x1 = sx + 1, y0 = sy, y1 = sy + 1;
  while (top > 0) {
    const i = stack[--top];
    const px = i % width, py = (i - px) / width;
    if (px < x0) x0 = px;
    if (px >= x1) x1 = px + 1;
    if (py < y0) y0 = py;
    if (py >= y1) y1 = py + 1;
    if (px > 0 && !region[i - 1] && takes(i - 1)) { region[i - 1] = 1; stack[top++] = i - 1; }
    if (px < width - 1 && !region[i + 1] && takes(i + 1)) { region[i + 1] = 1; stack[top++] = i + 1; }
    if (py > 0 && !region[i - width] && takes(i - width)) { region[i - width] = 1; stack[top++] = i - width; }
    if (py < height - 1 && !region[i + width] && takes(i + width)) { region[i + width] = 1; stack[top++] = i + width; }
  }
  return { region, box: { x0, y0, x1, y1 } };
}

/** Grows a 0/1 region by `by` pixels (square), only into pixels `into` allows: the soft rim around a piece. */
function grow(region: Uint8Array, width: number, height: number, box: Dirty, by: number, into: (i: number) => boolean): Dirty {
  const out: Dirty = { x0: Math.max(0, box.x0 - by), y0: Math.max(0, box.y0 - by), x1: Math.min(width, box.x1 + by), y1: Math.min(height, box.y1 + by) };
  for (let pass = 0; pass < by; pass++) {
    const add: number[] = [];
    for (let y = out.y0; y < out.y1; y++) {
      for (let x = out.x0; x < out.x1; x++) {
        const i = y * width + x;
        if (region[i] || !into(i)) continue;
        if ((x > 0 && region[i - 1]) || (x < width - 1 && region[i + 1]) || (y > 0 && region[i - width]) || (y < height - 1 && region[i + width])) add.push(i);
      }
    }
    for (const i of add) region[i] = 1;
  }
  return out;
}

/**
 * Click to remove: the region at the click leaves the cutout, with its soft rim. A click outside the cutout
 * removes nothing (null).
 */
export function removeRegion(mask: Mask, photo: Pixels, x: number, y: number, similar?: { tolerance: number }): Dirty | null {
  const found = regionAt(mask, photo, x, y, similar);
  if (!found || mask.alpha[Math.floor(y) * mask.width + Math.floor(x)] < SOLID) return null;
  const { alpha, width, height } = mask;
  const box = grow(found.region, width, height, found.box, 2, (i) => alpha[i] > 0 && alpha[i] < SOLID);
  for (let y0 = box.y0; y0 < box.y1; y0++) for (let x0 = box.x0; x0 < box.x1; x0++) if (found.region[y0 * width + x0]) alpha[y0 * width + x0] = 0;
  return box;
}

/**
 * Click to keep: on the cutout, only the piece clicked stays (every other piece goes, rims included); outside
 * it, the colour-similar area of the photo at the click comes back.
 */
export function keepRegion(mask: Mask, photo: Pixels, x: number, y: number, similar?: { tolerance: number }): Dirty | null {
  const found = regionAt(mask, photo, x, y, similar);
  if (!found) return null;
  const { alpha, width, height } = mask;
  const inside = alpha[Math.floor(y) * width + Math.floor(x)] >= SOLID;
  if (!inside) {
    for (let i = 0; i < alpha.length; i++) if (found.region[i]) alpha[i] = 255;
    return found.box;
  }
  // The kept piece with its soft rim; everything else with any alpha is dropped.
  grow(found.region, width, height, found.box, 2, (i) => alpha[i] > 0 && alpha[i] < SOLID);
  let x0 = width, y0 = height, x1 = 0, y1 = 0;
  for (let yy = 0; yy < height; yy++) {
    for (let xx = 0; xx < width; xx++) {
      const i = yy * width + xx;
      if (alpha[i] && !found.region[i]) {
        alpha[i] = 0;
        if (xx < x0) x0 = xx;
        if (xx >= x1) x1 = xx + 1;
        if (yy < y0) y0 = yy;
        if (yy >= y1) y1 = yy + 1;
      }
    }
  }
  return x1 > x0 ? { x0, y0, x1, y1 } : null;
}

/** Undo and redo as whole-mask snapshots (a 2000x1500 mask is 3 MB; the history keeps the last few). */
export class History {
  private past: Uint8Array[] = [];
  private future: Uint8Array[] = [];
  constructor(private readonly limit = 30) {}
  /** Call with the mask as it was before an edit (a copy the history may keep). */
  push(before: Uint8Array) {
    this.past.push(before);
    if (this.past.length > this.limit) this.past.shift();
    this.future = [];
  }
  undo(alpha: Uint8Array): boolean {
    const prev = this.past.pop();
    if (!prev) return false;
    this.future.push(alpha.slice());
    alpha.set(prev);
    return true;
  }
  redo(alpha: Uint8Array): boolean {
    const next = this.future.pop();
    if (!next) return false;
    this.past.push(alpha.slice());
    alpha.set(next);
    return true;
  }
  get canUndo() {
    return this.past.length > 0;
  }
  get canRedo() {
    return this.future.length > 0;
  }
}
