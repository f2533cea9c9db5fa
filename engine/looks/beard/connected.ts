/** Connected regions of a binary plane: a flood fill from seeds and the size of the largest patch. */

/** Pixels reachable from a seed through open pixels (4-connected); seeds are always in. */
export function floodFrom(seed: Uint8Array, open: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(seed.length), stack: number[] = [];
  for (let i = 0; i < seed.length; i++) if (seed[i]) { out[i] = 1; stack.push(i); }
  while (stack.length) {
    const i = stack.pop()!, x = i % w;
    for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, i >= w ? i - w : -1, i + w < w * h ? i + w : -1]) {
      if (j >= 0 && !out[j] && open[j]) { out[j] = 1; stack.push(j); }
    }
  }
  return out;
}

/** The pixel count of the largest 8-connected patch of set pixels. */
export function largestPatch(set: Uint8Array, w: number, h: number): number {
  const seen = new Uint8Array(set.length), stack: number[] = [];
  let best = 0;
  for (let s = 0; s < set.length; s++) {
    if (!set[s] || seen[s]) continue;
    let size = 0;
    seen[s] = 1; stack.push(s);
    while (stack.length) {
      const i = stack.pop()!, x = i % w, y = (i / w) | 0;
      size++;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const X = x + dx, Y = y + dy;
        if (X < 0 || Y < 0 || X >= w || Y >= h) continue;
        const j = Y * w + X;
        if (set[j] && !seen[j]) { seen[j] = 1; stack.push(j); }
      }
    }
    if (size > best) best = size;
  }
  return best;
}
