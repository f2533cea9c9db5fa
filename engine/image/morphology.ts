/**
 * Greyscale morphology on float planes with a square structuring element (separable: rows then columns,
 * O(pixels * r)). A closing (max then min) removes dark details narrower than about 2r (hairs, stubble
 * dots) and keeps everything broader, shading included.
 */

function dilate1(v: Float32Array, w: number, h: number, r: number): Float32Array {
  const rows = new Float32Array(v.length), out = new Float32Array(v.length);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      let m = -Infinity;
      for (let k = o + Math.max(0, x - r), e = o + Math.min(w - 1, x + r); k <= e; k++) if (v[k] > m) m = v[k];
      rows[o + x] = m;
    }
  }
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r), y1 = Math.min(h - 1, y + r), o = y * w;
    out.set(rows.subarray(y0 * w, y0 * w + w), o);
    for (let k = y0 + 1; k <= y1; k++) {
      const src = k * w;
      for (let x = 0; x < w; x++) if (rows[src + x] > out[o + x]) out[o + x] = rows[src + x];
    }
  }
  return out;
}

const negate = (v: Float32Array) => { for (let i = 0; i < v.length; i++) v[i] = -v[i]; return v; };

/** Largest value within a (2r+1)-square around each pixel. */
export const dilatePlane = (v: Float32Array, w: number, h: number, r: number) => dilate1(v, w, h, Math.max(0, Math.round(r)));
/** Smallest value within a (2r+1)-square around each pixel. */
export const erodePlane = (v: Float32Array, w: number, h: number, r: number) => negate(dilate1(negate(Float32Array.from(v)), w, h, Math.max(0, Math.round(r))));
/** Dilation then erosion: dark details narrower than about 2r filled from the light around them. */
export const closePlane = (v: Float32Array, w: number, h: number, r: number) => erodePlane(dilatePlane(v, w, h, r), w, h, r);
