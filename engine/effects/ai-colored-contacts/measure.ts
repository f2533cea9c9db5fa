/**
 * The quality measures of a contacts result, shared by the HTTP test and scripts/quality/contacts.ts:
 * spill (pixels changed by more than 12 outside the eye openings grown by 6 % of the face width, over the
 * pixels there), coverage (the share of eye-opening pixels changed) and whether the changed pixels moved
 * toward the lens colour (mean ΔE2000 to it, before and after).
 */
import { changedPixels, dilate, spill } from '../../image/change.ts';
import type { RasterImage } from '../../image/raster.ts';
import { deltaE, labOf } from '../../image/colour.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { faceRegions } from '../../vision/regions/face-regions.ts';

export interface ContactsMeasure { spill: number; coverage: number; deltaBefore: number; deltaAfter: number; eyePixels: number }


export function measureContacts(before: RasterImage, after: Uint8Array, faces: Face[], lensHex: string): ContactsMeasure {
  const { width, height, channels } = before;
  const changed = changedPixels(before.data, after, channels);
  const eyes = new Uint8Array(width * height);
  let faceWidth = 0;
  for (const face of faces) {
    const r = faceRegions(face, before, undefined, ['leftEye', 'rightEye']);
    for (const m of [r.leftEye, r.rightEye]) if (m) for (let i = 0; i < eyes.length; i++) if (m.data[i] > 127) eyes[i] = 1;
    if (face.mesh) faceWidth = Math.max(faceWidth, Math.hypot(face.mesh[454][0] - face.mesh[234][0], face.mesh[454][1] - face.mesh[234][1]));
  }
  const grown = dilate(eyes, width, height, Math.round(0.06 * faceWidth));
  let eyePixels = 0, eyeChanged = 0, n = 0, dBefore = 0, dAfter = 0;
  const hex = parseInt(lensHex.slice(1), 16);
  const lens = labOf(hex >> 16, (hex >> 8) & 255, hex & 255);
  for (let i = 0; i < eyes.length; i++) {
    if (!eyes[i]) continue;
    eyePixels++;
    if (!changed[i]) continue;
    eyeChanged++;
    const o = i * channels;
    dBefore += deltaE(labOf(before.data[o], before.data[o + 1], before.data[o + 2]), lens);
    dAfter += deltaE(labOf(after[o], after[o + 1], after[o + 2]), lens);
    n++;
  }
  return { spill: spill(changed, grown).fraction, coverage: eyePixels ? eyeChanged / eyePixels : 0, deltaBefore: n ? dBefore / n : 0, deltaAfter: n ? dAfter / n : 0, eyePixels };
}
