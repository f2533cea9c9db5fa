/**
 * The skin seen between the hairs of a beard (stubble, a sparse beard): where it shows, the removal takes the
 * face's own shading from it, and the mask tells a dense beard (none seen) from stubble by it.
 */
import { closePlane } from '../../image/morphology.ts';
import { blurPlane } from '../../image/frequency.ts';
import { removalTuning } from './tuning.ts';

export interface SkinColour { a: number; b: number; spreadAB: number }

/** The source skin's median a*, b* and the robust spread of its chroma about them (working-copy planes). */
export function skinColour(small: Float32Array[], source: Uint8Array): SkinColour {
  const med = (v: number[]) => v.sort((x, y) => x - y)[v.length >> 1] ?? 0;
  const idx: number[] = [];
  for (let i = 0; i < source.length; i++) if (source[i]) idx.push(i);
  const a = med(idx.map((i) => small[1][i])), b = med(idx.map((i) => small[2][i]));
  const spreadAB = Math.max(2, 1.4826 * med(idx.map((i) => Math.hypot(small[1][i] - a, small[2][i] - b))));
  return { a, b, spreadAB };
}

/**
 * The low band where skin shows between the hairs (stubble, a sparse beard): the face's own shading there,
 * taken from the pixels on the lightness's closing envelope (the hairs are darker and narrower than it),
 * blended into the fill's low band by how densely such skin is found around each pixel. In place on `low`.
 */
export function skinBetweenHairs(planes: Float32Array[], low: Float32Array[], w: number, h: number, faceWidth: number, skin: SkinColour): Float32Array {
  const n = w * h;
  const { q, den, seen } = skinSeen(planes, w, h, faceWidth, skin);
  if (!q) return seen;
  for (let c = 0; c < 3; c++) {
    const pw = new Float32Array(n);
    for (let i = 0; i < n; i++) pw[i] = planes[c][i] * q[i];
    const num = blurPlane(pw, w, h, Math.max(1, removalTuning.skinSigma * faceWidth));
    for (let i = 0; i < n; i++) {
      if (seen[i] > 0) low[c][i] += seen[i] * (num[i] / den[i] - low[c][i]);
    }
  }
  return seen;
}

/**
 * How surely (0..1) the skin shows between the hairs around each pixel: skinBetweenHairs' weight, which a
 * beard mask also reads to tell a dense beard (nothing seen) from stubble. `q`, the envelope's skin pixels,
 * and `den`, their masked blur, are null and empty where nothing can be seen (a hair a pixel wide or more).
 */
export function skinSeen(planes: Float32Array[], w: number, h: number, faceWidth: number, skin: SkinColour): { q: Float32Array | null; den: Float32Array; seen: Float32Array } {
  const T = removalTuning, n = w * h;
  const [L, a, b] = planes;
  const radius = T.closeRadius * faceWidth;
  // A closing a pixel wide tells nothing from skin's grain: on a small face (a hair a pixel or more wide)
  // the fill's low band stays.
  const trust = T.skinLow * Math.min(1, Math.max(0, radius - 1));
  if (trust === 0) return { q: null, den: new Float32Array(0), seen: new Float32Array(n) };
  const closed = closePlane(L, w, h, radius);
  const q = new Float32Array(n);
  // On the envelope, and skin-coloured: between the hairs of a dense beard the envelope is the lightest hair,
  // which is darker or of another hue than the skin (a fill from it would paint the beard's tint back).
  const within = (d: number, spread: number) => Math.min(1, Math.max(0, 1 - (d - T.sourceSpread * spread) / spread));
  for (let i = 0; i < n; i++) {
    const d = Math.max(0, 1 - (closed[i] - L[i]) / T.skinNear);
    if (d === 0) continue;
    // By hue only: the chin's own shading is darker than the cheeks (a lightness test there left the fill's
    // flat patches in the shadow under the chin).
    q[i] = d * d * within(Math.hypot(a[i] - skin.a, b[i] - skin.b), skin.spreadAB);
  }
  const den = blurPlane(q, w, h, Math.max(1, T.skinSigma * faceWidth));
  const seen = new Float32Array(n);
  for (let i = 0; i < n; i++) seen[i] = trust * Math.min(1, den[i] / T.skinDense);
  return { q, den, seen };
}
