/**
 * What is not clothing on a person, found from the face: the face itself (mesh hull), skin anywhere on
 * the body (a colour model learnt from the face's own pixels), hair (the colour beside and above the
 * face, grown from the head) and, above the face, a hat (what sits on the head and is neither).
 */
import { labDistance } from '../../../image/colour.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { convexHull, fillPolygon } from './geometry.ts';
import { groups } from './regions.ts';
import { areaOf, L, medianLab, regionShare, type Scene } from './scene.ts';
import { HEAD } from './tuning.ts';

export interface SkinModel { mean: [number, number, number]; /** inverse covariance of (a, b) */ inv: [number, number, number]; lRange: [number, number] }

/** Pixels of the face: the hull of the mesh, or an ellipse in the box when there is no mesh. */
export function faceMask(face: Face, width: number, height: number): Uint8Array {
  if (face.mesh && face.mesh.length >= 468) return fillPolygon(convexHull(face.mesh.slice(0, 468).map(([x, y]) => ({ x, y }))), width, height);
  const { x0: x, y0: y, w, h } = face.box;
  const poly = Array.from({ length: 24 }, (_, k) => ({ x: x + w / 2 + (w / 2) * Math.cos((k / 24) * 2 * Math.PI), y: y + h / 2 + (h / 2) * Math.sin((k / 24) * 2 * Math.PI) }));
  return fillPolygon(poly, width, height);
}

/** A skin colour model from the face pixels: robust mean and (a, b) covariance, with a wide lightness band. */
export function skinModel(s: Scene, mask: Uint8Array): SkinModel | null {
  const px: number[][] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) px.push([s.lab[i * 3], s.lab[i * 3 + 1], s.lab[i * 3 + 2]]);
  if (px.length < HEAD.minFacePixels) return null;
  const med = [0, 1, 2].map((c) => px.map((p) => p[c]).sort((a, b) => a - b)[px.length >> 1]);
  // Eyes, brows, lips, glasses and shadows are the outliers; skin is the bulk around the median.
  const keep = px.filter((p) => Math.abs(p[1] - med[1]) < HEAD.skinOutlier.a && Math.abs(p[2] - med[2]) < HEAD.skinOutlier.b && Math.abs(p[0] - med[0]) < HEAD.skinOutlier.L);
  if (keep.length < HEAD.minSkinPixels) return null;
  const m = [0, 1, 2].map((c) => keep.reduce((t, p) => t + p[c], 0) / keep.length) as [number, number, number];
  let saa = 0, sbb = 0, sab = 0;
  for (const p of keep) { const da = p[1] - m[1], db = p[2] - m[2]; saa += da * da; sbb += db * db; sab += da * db; }
  // Floors: a face in flat light is more uniform than the same skin on arms and legs in shade.
  saa = saa / keep.length + HEAD.skinVarianceFloor.a; sbb = sbb / keep.length + HEAD.skinVarianceFloor.b; sab /= keep.length;
  const det = saa * sbb - sab * sab;
  return { mean: m, inv: [sbb / det, -sab / det, saa / det], lRange: [m[0] - HEAD.skinLightness.below, m[0] + HEAD.skinLightness.above] };
}

/** Mahalanobis² of a colour's chroma under the skin model; Infinity outside the lightness band. */
export function skinDistance(m: SkinModel, lab: ArrayLike<number>): number {
  if (lab[0] < m.lRange[0] || lab[0] > m.lRange[1]) return Infinity;
  const da = lab[1] - m.mean[1], db = lab[2] - m.mean[2];
  return da * da * m.inv[0] + 2 * da * db * m.inv[1] + db * db * m.inv[2];
}

/** Labels face, skin, hair and hat regions among the foreground ones (label !== background means decided). */
/** `hairShare`: each region's share inside the hair mask, when one is known. */
export function labelHead(s: Scene, fg: Uint8Array, faces: Face[], ownFaceMask: Uint8Array | null, skin: SkinModel | null, hairShare?: Float32Array) {
  if (ownFaceMask) {
    const share = regionShare(s, ownFaceMask);
    for (let r = 0; r < s.regions.length; r++) if (fg[r] && share[r] >= 0.5) s.label[r] = L.face;
  }
  // Other people's faces are not clothing either.
  for (const f of faces.slice(1)) {
    const share = regionShare(s, faceMask(f, s.width, s.height));
    for (let r = 0; r < s.regions.length; r++) if (fg[r] && share[r] >= 0.5) s.label[r] = L.face;
  }
  // (Growing skin from these into similar neighbours was tried: it ate beige and khaki garments.)
  if (skin) for (let r = 0; r < s.regions.length; r++) {
    if (fg[r] && s.label[r] === L.background && skinDistance(skin, s.regions[r].lab) < HEAD.skinDistance2) s.label[r] = L.skin;
  }
  const face = faces[0];
  if (!face) return;
  const { x0: x, y0: y, w, h } = face.box;
  const cx = x + w / 2;
  const free = (r: number) => fg[r] && s.label[r] === L.background;
  // Hair seeds: beside the face at eye level, and a band just above it (hair, or a hat).
  const side: number[] = [], above: number[] = [];
  for (let r = 0; r < s.regions.length; r++) {
    if (!free(r)) continue;
    const g = s.regions[r];
    if (g.y > y + h * HEAD.sideSeeds.top && g.y < y + h * HEAD.sideSeeds.bottom && Math.abs(g.x - cx) > w * HEAD.sideSeeds.inner && Math.abs(g.x - cx) < w * HEAD.sideSeeds.outer) side.push(r);
    if (g.y < y + h * HEAD.aboveSeeds.bottom && g.y > y - h * HEAD.aboveSeeds.top && Math.abs(g.x - cx) < w * HEAD.aboveSeeds.half) above.push(r);
  }
  // Hair hanging below the eyes (the hair mask there: a ponytail, a bob, loose hair; hats stop above the
  // eyes) gives the hair's colour even when the face's sides show ear and neck: buns, tied-back and dark
  // hair on the crown are that colour, a hat is not.
  const low: number[] = [];
  if (hairShare) for (let r = 0; r < s.regions.length; r++) {
    const g = s.regions[r];
    if (free(r) && hairShare[r] >= 0.5 && g.y > y + h * HEAD.lowHair.top && g.y < y + h * HEAD.lowHair.bottom && Math.abs(g.x - cx) < w * HEAD.lowHair.half) low.push(r);
  }
  const lowHair = areaOf(s, low) > w * h * HEAD.lowHairArea ? medianLab(s, low) : null;
  const sideHair = areaOf(s, side) > w * h * HEAD.sideHairArea ? medianLab(s, side) : null;
  const topColour = medianLab(s, above);
  // Hat: what sits on the head above the brow and is not the hair seen beside the face. With hair beside
  // the face, its colour tells them apart; without (short hair), a hat rises higher or spreads wider.
  const hat: number[] = [];
  for (let r = 0; r < s.regions.length; r++) {
    const g = s.regions[r];
    if (!free(r) || g.y > y + h * HEAD.hatZone.bottom || g.y < y - h * HEAD.hatZone.top || Math.abs(g.x - cx) > w * HEAD.hatZone.half) continue;
    if (sideHair && labDistance(g.lab, sideHair) < HEAD.hairDE) continue;
    if (lowHair && labDistance(g.lab, lowHair) < HEAD.hairDE) continue;
    hat.push(r);
  }
  let isHat = false;
  // Only the largest connected piece, and at least half the face's box: stray highlights and buns are not hats.
  hat.splice(0, hat.length, ...(groups(s, hat)[0] ?? []));
  if (hat.length && areaOf(s, hat) > w * h * HEAD.hatArea) {
    const rise = y - Math.min(...hat.map((r) => s.regions[r].y0));
    const wide = Math.max(...hat.map((r) => s.regions[r].x1)) - Math.min(...hat.map((r) => s.regions[r].x0));
    // Beside-face hair was left out of the candidates, so with it known the rest only has to sit high enough.
    isHat = sideHair ? rise > h * HEAD.hatRise : rise > h * HEAD.hatRiseAlone && wide > w * HEAD.hatWide;
  }
  if (isHat) for (const r of hat) s.label[r] = L.hat;
  // Nothing worn but a hat sits above the chin beside or over the head: what is left there is hair
  // (the rim of a hairline, an ear, a strand against the background).
  for (let r = 0; r < s.regions.length; r++) {
    const g = s.regions[r];
    if (free(r) && g.y < y + h * HEAD.headRest.bottom && g.y > y - h * HEAD.headRest.top && Math.abs(g.x - cx) < w * HEAD.headRest.half) s.label[r] = L.hair;
  }
  const colours = [sideHair, isHat ? null : topColour].filter((c) => c !== null);
  if (colours.length === 0) return;
  const hairLike = (r: number) => Math.min(...colours.map((c) => labDistance(s.regions[r].lab, c))) < HEAD.hairDE;
  // Grow hair from the seeds through hair-coloured regions near the head (long hair reaches the chest).
  const near = (r: number) => {
    const g = s.regions[r];
    return Math.abs(g.x - cx) < w * HEAD.hairReach.half && g.y > y - h * HEAD.hairReach.top && g.y < y + h * HEAD.hairReach.bottom;
  };
  const queue = [...side, ...above].filter((r) => free(r) && hairLike(r));
  for (const r of queue) s.label[r] = L.hair;
  while (queue.length) {
    const r = queue.pop()!;
    for (const q of s.neighbours[r]) {
      if (!free(q) || !near(q) || !hairLike(q)) continue;
      // Below the chin, hair hangs at the sides, not in front of the chest's middle.
      if (s.regions[q].y > y + h * HEAD.hairBelowChin.chin && Math.abs(s.regions[q].x - cx) < w * HEAD.hairBelowChin.middle) continue;
      s.label[q] = L.hair; queue.push(q);
    }
  }
}
