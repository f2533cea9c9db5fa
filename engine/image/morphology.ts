/**
 * Greyscale morphology on float planes with a square structuring element (separable: rows then columns,
 * O(pixels * r)). A closing (max then min) removes dark details narrower than about 2r (hairs, stubble
 * dots) and keeps everything broader, shading included.
 */

function extremum(v: Float32Array, w: number, h: number, r: number, pick: (a: number, b: number) => number): Float32Array {
  const rows = new Float32Array(v.length), out = new Float32Array(v.length);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      let m = v[o + x];
      for (let k = Math.max(0, x - r), e = Math.min(w - 1, x + r); k <= e; k++) m = pick(m, v[o + k]);
      rows[o + x] = m;
    }
  }
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      let m = rows[y * w + x];
      for (let k = Math.max(0, y - r), e = Math.min(h - 1, y + r); k <= e; k++) m = pick(m, rows[k * w + x]);
      out[y * w + x] = m;
    }
  }
  return out;
}

/** Largest value within a (2r+1)-square around each pixel. */
export const dilatePlane = (v: Float32Array, w: number, h: number, r: number) => extremum(v, w, h, Math.max(0, Math.round(r)), Math.max);
/** Smallest value within a (2r+1)-square around each pixel. */
export const erodePlane = (v: Float32Array, w: number, h: number, r: number) => extremum(v, w, h, Math.max(0, Math.round(r)), Math.min);
/** Dilation then erosion: dark details narrower than about 2r filled from the light around them. */
export const closePlane = (v: Float32Array, w: number, h: number, r: number) => erodePlane(dilatePlane(v, w, h, r), w, h, r);
