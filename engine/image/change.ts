/**
 * What an edit changed, for tests and quality scripts: the pixels that moved by more than a threshold in
 * any channel, and how many of them lie outside a region grown by a margin (the "spill").
 */

/** 1 where any of the first three channels differs by more than `threshold`. Same size and channels required. */
export function changedPixels(before: Uint8Array, after: Uint8Array, channels: number, threshold = 12): Uint8Array {
  if (before.length !== after.length) throw new Error(`sizes differ: ${before.length} and ${after.length} bytes`);
  const n = before.length / channels;
  const out = new Uint8Array(n);
  for (let i = 0, o = 0; i < n; i++, o += channels) {
    if (Math.abs(before[o] - after[o]) > threshold || Math.abs(before[o + 1] - after[o + 1]) > threshold || Math.abs(before[o + 2] - after[o + 2]) > threshold) out[i] = 1;
  }
  return out;
}

/** A binary mask (non-zero = in) grown by `r` pixels (a square, by two separable running maxima). */
export function dilate(mask: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const rows = new Uint8Array(mask.length), out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    let last = -Infinity; // x of the last "in" pixel seen going right
    for (let x = 0; x < width + r; x++) {
      if (x < width && mask[y * width + x]) last = x;
      const t = x - r; // the pixel whose window [t - r, t + r] ends at x
      if (t >= 0 && t < width && x - last <= 2 * r) rows[y * width + t] = 1;
    }
  }
  for (let x = 0; x < width; x++) {
    let last = -Infinity;
    for (let y = 0; y < height + r; y++) {
      if (y < height && rows[y * width + x]) last = y;
      const t = y - r;
      if (t >= 0 && t < height && y - last <= 2 * r) out[t * width + x] = 1;
    }
  }
  return out;
}

/** Changed pixels outside `region` (non-zero = inside), over all pixels outside it. */
export function spill(changed: Uint8Array, region: Uint8Array): { outside: number; changed: number; fraction: number } {
  let outside = 0, moved = 0;
  for (let i = 0; i < changed.length; i++) {
    if (region[i]) continue;
    outside++;
    if (changed[i]) moved++;
  }
  return { outside, changed: moved, fraction: outside ? moved / outside : 0 };
}
