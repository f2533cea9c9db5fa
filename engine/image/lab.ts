/** sRGB (8-bit, D65) to CIE L*a*b*, the space where colour distances roughly match what people see. */

const LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);

/** Interleaved RGB(A) → planar-free interleaved Lab (3 floats per pixel): L in 0..100, a and b about -128..127. */
export function toLab(data: Uint8Array, channels: number, n: number): Float32Array {
  const out = new Float32Array(n * 3);
  for (let i = 0, j = 0; i < n; i++, j += channels) {
    const r = LINEAR[data[j]], g = LINEAR[data[j + 1]], b = LINEAR[data[j + 2]];
    const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
    const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
    const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
    out[i * 3] = 116 * y - 16;
    out[i * 3 + 1] = 500 * (x - y);
    out[i * 3 + 2] = 200 * (y - z);
  }
  return out;
}

/** Euclidean distance between two Lab colours (CIE76 ΔE). */
export const deltaE = (p: ArrayLike<number>, q: ArrayLike<number>) => Math.sqrt(deltaE2(p, q));

/**
 * The squared distance: what a Gaussian of ΔE needs, without a square root. (deltaE is its root, not
 * Math.hypot: hypot's care against overflow cost the garment parse ~10 % of its time, for no digit that matters
 * at Lab's magnitudes.)
 */
export const deltaE2 = (p: ArrayLike<number>, q: ArrayLike<number>) => {
  const dl = p[0] - q[0], da = p[1] - q[1], db = p[2] - q[2];
  return dl * dl + da * da + db * db;
};
