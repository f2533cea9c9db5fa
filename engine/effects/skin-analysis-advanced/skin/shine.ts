/**
 * Shine and texture for the skin type. Sebum makes skin glossy: a specular highlight is lighter than the
 * skin around it and paler (the light's own colour, not the skin's), so shine here is lightness above a
 * 4 mm local mean weighted by the loss of chroma. The T-zone (forehead, nose, chin) against the U-zone
 * (cheeks) tells oily from combination; dry skin shows little shine and a rough fine texture.
 */
import { gauss as blurPlane } from '../../../image/gauss.ts';
import { SKIN_TYPE } from '../tuning.ts';
import type { LabFrame } from './blobs.ts';

/** Per-pixel shine 0..1 (s: frame px/mm). */
export function shineMap(lab: LabFrame, s: number): Float32Array {
  const { L, a, b, w, h } = lab;
  const C = new Float32Array(w * h);
  for (let i = 0; i < C.length; i++) C[i] = Math.hypot(a[i], b[i]);
  const Lm = blurPlane(L, w, h, 4 * s), Cm = blurPlane(C, w, h, 4 * s);
  const out = new Float32Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const lift = (L[i] - Lm[i] - 3) / 10, pale = (Cm[i] - C[i]) / 4 + 0.5;
    out[i] = Math.max(0, Math.min(1, lift)) * Math.max(0, Math.min(1, pale));
  }
  return out;
}

/** Fine texture: RMS of lightness finer than 0.5 mm (L* units), where `zone` ≥ 0.5. */
export function fineTexture(L: Float32Array, w: number, h: number, s: number, zone: Float32Array): number {
  const low = blurPlane(L, w, h, Math.max(0.6, 0.5 * s));
  let e = 0, n = 0;
  for (let i = 0; i < L.length; i++) if (zone[i] >= 0.5) { e += (L[i] - low[i]) ** 2; n++; }
  return n ? Math.sqrt(e / n) : 0;
}

export interface SkinType {
  /** 0 oily, 1 dry, 2 neutral, 3 combination. */
  type: number;
  /** Each type's score 0..1 (how well the measures fit it); the type is the best. */
  scores: [number, number, number, number];
}

const ramp = (v: number, at: number, width: number) => 1 / (1 + Math.exp(-(v - at) / width));

/** Skin type from T-zone and U-zone shine and cheek texture. */
export function skinType(tShine: number, uShine: number, texture: number, t = SKIN_TYPE): SkinType {
  const tOily = ramp(tShine, t.oilyT, t.oilyT / 4), uOily = ramp(uShine, t.oilyU, t.oilyU / 4), rough = ramp(texture, t.dryTexture, 0.3);
  const scores: [number, number, number, number] = [
    tOily * uOily,
    (1 - tOily) * (1 - uOily) * rough,
    (1 - tOily) * (1 - uOily) * (1 - rough),
    tOily * (1 - uOily),
  ];
  return { type: scores.indexOf(Math.max(...scores)), scores };
}
