/**
 * One face's skin analysis: the frame (mm scale from the iris), its zones, then every measure of the
 * interface (docs/interface.md#skin-analysis) from the kernels beside this file. Every code is a threshold
 * (../tuning.ts) on a measured quantity in mm, per cm² or in L*; every confidence is 0.5 at its threshold
 * and grows toward 1 with the margin (grows() for a finding, fades() for an absence), scaled down where
 * the frame is too coarse to see the feature.
 */
import { toLab } from '../../../image/colour.ts';
import type { RasterImage } from '../../../image/raster.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import type { FaceParsing, ParsingSample } from '../../../vision/parsing/face-parsing.ts';
import { BLOBS, DARK_CIRCLE, EYELID, FINE_LINES, FOLD, FULL_SCALE, LINES, MATTE_SHINE, POUCH, POUCH_CONF, RIDGE_SIGMAS } from '../tuning.ts';
import { ageFeaturesOf, faceWidthMm, skinAgeOf } from './age.ts';
import { findBlobs, type Blob, type LabFrame } from './blobs.ts';
import { fades, grows } from './confidence.ts';
import { eyelid, eyePouch } from './eyes.ts';
import { makeFrame, toImage, type Frame } from './frame.ts';
import { around, finer, lesionConfidence, lesionKind, lesionPlane, refinedSpot, type Lesion } from './lesions.ts';
import { foldSearch, lateralReach, spreadIn, withFurrows } from './lines.ts';
import type { MemberName, PoreName, Scored, WrinkleMeasures, WrinkleName, Zones } from './names.ts';
import { darkCircle, itaClass, itaMargin, itaOf, meanIn, pigments, quantileIn, quantilesIn, type Pigments } from './pigment.ts';
import { findLines, lineEvidence, ridgeField, type Line, type RidgeField } from './ridges.ts';
import { eyeArea, resolvedScale, sharpness } from './sharpness.ts';
import { fineTexture, shineMap, skinType, type SkinType } from './shine.ts';
import { faceMm, skinZones, zoneArea } from './zones.ts';

const round3 = (v: number) => Math.round(v * 1000) / 1000;

export interface SkinAnalysis {
  frame: Frame;
  zones: Zones;
  members: Record<MemberName, Scored>;
  skinType: SkinType;
  skinAge: number;
  lesions: Lesion[];
  /** The measured quantities behind the codes (for reports and the skin-age model). */
  measures: {
    ita: number; tShine: number; uShine: number; texture: number;
    wrinkles: WrinkleMeasures;
    pouch: number; darkCircle: ReturnType<typeof darkCircle>;
    poreDensity: Record<PoreName, number>; blackheadDensity: number;
    spotDensity: number; melaninSpread: number; faceWidth: number;
  };
  /** Features of the skin-age model, in its order. */
  ageFeatures: number[];
  internals: { lab: LabFrame; fine: RidgeField; pig: Pigments; shine: Float32Array; pores: Blob[]; blackheads: Blob[]; lines: Record<WrinkleName, Line[]>; candidates: Blob[] };
}

export function labFrame(f: Frame): LabFrame {
  const lab = toLab({ data: f.rgb, width: f.w, height: f.h, channels: 3 });
  return { L: lab.L, a: lab.a, b: lab.b, w: f.w, h: f.h };
}

export function analyseSkin(f: Frame, face: Face, parsing: FaceParsing | ParsingSample, lab = labFrame(f), ms: Record<string, number> = {}): SkinAnalysis {
  const s = f.s, { w, h } = f;
  let t0 = performance.now(), c0 = process.cpuUsage();
  /** Milliseconds per part, wall and (as `${name} cpu`) this process's CPU, into `ms` (the benchmark prints them). */
  const lap = (name: string) => {
    const t = performance.now(), c = process.cpuUsage();
    ms[name] = (ms[name] ?? 0) + t - t0;
    ms[`${name} cpu`] = (ms[`${name} cpu`] ?? 0) + (c.user - c0.user + c.system - c0.system) / 1000;
    t0 = t; c0 = c;
  };
  const zones = skinZones(f, face, parsing);
  lap('zones');
  const resolution = Math.min(1, s / FULL_SCALE);
  const resolved = resolvedScale(s, sharpness(lab.L, w, h, s, eyeArea(f)));
  const scaleConf = (c: number) => round3(0.5 + (c - 0.5) * resolution);

  // Lines and folds.
  const fine = ridgeField(lab.L, w, h, RIDGE_SIGMAS.fine.map((v) => v * s));
  const coarse = ridgeField(lab.L, w, h, RIDGE_SIGMAS.coarse.map((v) => v * s));
  // Fine lines are fine: where the fold scales read a line deeper than FINE_LINES.overCoarse x the fine
  // scales do, it is a broad crease or shadow (a smiling child's lower lid), not a fine line.
  const fineDepth = new Float32Array(w * h);
  for (let i = 0; i < fineDepth.length; i++) fineDepth[i] = coarse.depth[i] > FINE_LINES.overCoarse * fine.depth[i] ? 0 : fine.depth[i];
  const fineLines: RidgeField = { ...fine, depth: fineDepth };
  lap('ridges');
  const foldDir = (side: 'right' | 'left') => {
    const [a, b] = side === 'right' ? [129, 61] : [358, 291];
    return Math.atan2(f.mesh[b][1] - f.mesh[a][1], f.mesh[b][0] - f.mesh[a][0]);
  };
  const wrinkles = {} as SkinAnalysis['measures']['wrinkles'];
  const members = {} as Record<MemberName, Scored>;
  const allLines = {} as Record<WrinkleName, Line[]>;
  for (const [name, rule] of Object.entries(LINES) as [WrinkleName, (typeof LINES)[WrinkleName]][]) {
    let evidence = 0, longest = 0, depth = 0;
    allLines[name] = [];
    const minDepth = rule.minScale && resolved < rule.minScale ? rule.minDepth * (rule.minScale / resolved) ** 2 : rule.minDepth;
    for (const z of rule.zones) {
      const dir = rule.direction === 'across' ? f.roll : rule.direction === 'down' ? f.roll + Math.PI / 2 : foldDir(z.startsWith('right') ? 'right' : 'left');
      const field = rule.field === 'coarse' ? coarse : fineLines;
      let floor: number, along = dir;
      if (rule.direction === 'fold') ({ floor, direction: along } = foldSearch(field, zones[z], dir, minDepth, rule.minLength, w, s));
      else floor = FINE_LINES.noise * spreadIn(field.depth, zones[z]);
      const query = { zone: zones[z], minDepth: Math.max(minDepth, floor), direction: along, tolerance: (rule.tolerance * Math.PI) / 180, s };
      let lines = findLines(rule.field === 'all' ? withFurrows(fineLines, query.minDepth, coarse, zones[z], minDepth, w, h, s) : field, query);
      if (rule.direction === 'fold') {
        const side = z.startsWith('right') ? 'right' : 'left', perFaceMm = faceMm(face.mesh!) * f.k;
        lines = lines.filter((l) => lateralReach(l, f.mesh, side, field.depth, w, perFaceMm) >= FOLD.lateral);
      }
      allLines[name].push(...lines.filter((l) => l.length >= rule.minLength));
      evidence += lineEvidence(lines, rule.minLength);
      for (const l of lines) if (l.length > longest) { longest = l.length; depth = l.depth; }
    }
    wrinkles[name] = { evidence, longest, depth };
    const threshold = rule.minLength * minDepth;
    members[name] = evidence > 0
      ? { value: 1, confidence: scaleConf(grows(evidence, threshold)) }
      : { value: 0, confidence: scaleConf(fades(longest * depth, threshold)) };
  }

  lap('lines');
  // Eyelids and pouches.
  for (const side of ['right', 'left'] as const) {
    const e = eyelid(f.mesh, side, fine, s);
    const found = e.depths.filter((d) => d > 0);
    const mean = found.length ? found.reduce((p, q) => p + q, 0) / found.length : 0;
    members[`${side}_eyelids`] = { value: e.type, confidence: scaleConf(e.type === 0 ? fades(found.length, EYELID.minFound) : grows(mean * found.length, EYELID.minDepth * EYELID.minFound)) };
  }
  const pr = eyePouch(f.mesh, 'right', coarse, s), pl = eyePouch(f.mesh, 'left', coarse, s);
  const pouchFound = pr.found >= POUCH.minFound || pl.found >= POUCH.minFound;
  const pouch = Math.max(pr.depth, pl.depth);
  members.eye_pouch = { value: pouchFound ? 1 : 0, confidence: scaleConf(pouchFound ? grows(pouch, POUCH_CONF.depth) : fades((pr.found + pl.found) / 2, POUCH.minFound)) };

  // Colour, pigments, dark circles.
  const pig = pigments(f.rgb, w * h);
  const shine = shineMap(lab, s);
  lap('pigment+shine');
  const cheeks = new Float32Array(w * h);
  for (let i = 0; i < cheeks.length; i++) cheeks[i] = Math.max(zones.rightCheek[i], zones.leftCheek[i]) >= 0.5 && shine[i] < MATTE_SHINE ? 1 : 0;
  const Lc = quantileIn(lab.L, cheeks, 0.5), bc = quantileIn(lab.b, cheeks, 0.5);
  const [melanin10, melanin90] = quantilesIn(pig.melanin, cheeks, [0.1, 0.9]);
  const ita = itaOf(Lc, bc);
  let cheekPx = 0; for (const v of cheeks) cheekPx += v;
  members.skin_color = { value: itaClass(ita), confidence: round3(grows(itaMargin(ita) + 2, 2) * Math.min(1, cheekPx / (200 * s * s))) };
  const under = new Float32Array(w * h);
  for (let i = 0; i < under.length; i++) under[i] = Math.max(zones.rightUnderEye[i], zones.leftUnderEye[i]) >= 0.5 && shine[i] < MATTE_SHINE ? 1 : 0;
  const stats = (m: Float32Array) => ({ L: quantileIn(lab.L, m, 0.5), m: quantileIn(pig.melanin, m, 0.5), h: quantileIn(pig.haemoglobin, m, 0.5), s: quantileIn(pig.shading, m, 0.5) });
  const dc = darkCircle(stats(under), stats(cheeks), DARK_CIRCLE.drop);
  members.dark_circle = { value: Number.isNaN(dc.dL) ? 0 : dc.type, confidence: round3(Number.isNaN(dc.dL) ? 0 : dc.type ? grows(-dc.dL, DARK_CIRCLE.drop) : fades(Math.max(0, -dc.dL), DARK_CIRCLE.drop)) };

  // Skin type.
  const tShine = meanIn(shine, zones.tZone), uShine = meanIn(shine, cheeks.map((_, i) => Math.max(zones.rightCheek[i], zones.leftCheek[i])));
  const texture = fineTexture(lab.L, w, h, s, cheeks);
  const st = skinType(tShine || 0, uShine || 0, texture);

  // Pores and blackheads (pore-scale dark blobs), lesions (lesion-scale blobs).
  lap('colour+type');
  const poresSeen = s >= BLOBS.poreScale;
  const pores = poresSeen ? findBlobs(lab, { radii: BLOBS.poreRadii.map((r) => r * s), polarity: 'dark', minResponse: BLOBS.poreResponse, zone: zones.skin, noise: 3 })
    .filter((b) => -b.dL >= BLOBS.pores.minContrast && b.da < BLOBS.acne.minRedness) : [];
  const density = (blobs: Blob[], zone: Float32Array) => {
    const area = zoneArea(zone, s) / 100;
    return area > 0.2 ? blobs.filter((b) => zone[b.y * w + b.x] >= 0.5).length / area : 0;
  };
  const jaw = new Float32Array(w * h);
  for (let i = 0; i < jaw.length; i++) jaw[i] = Math.max(zones.jaw[i], zones.chin[i]);
  const poreZones: Record<PoreName, Float32Array> = { pores_forehead: zones.forehead, pores_left_cheek: zones.leftCheek, pores_right_cheek: zones.rightCheek, pores_jaw: jaw };
  const poreDensity = {} as Record<PoreName, number>;
  const poreConf = poresSeen ? 1 : 0;
  for (const [name, zone] of Object.entries(poreZones) as [PoreName, Float32Array][]) {
    const d = density(pores, zone);
    poreDensity[name] = d;
    const c = d >= BLOBS.pores.density ? grows(d, BLOBS.pores.density) : fades(d, BLOBS.pores.density);
    members[name] = { value: d >= BLOBS.pores.density ? 1 : 0, confidence: round3(poreConf * scaleConf(c)) };
  }
  const blackheads = pores.filter((b) => -b.dL >= BLOBS.blackhead.minContrast && zones.nose[b.y * w + b.x] >= 0.5);
  const bhDensity = density(blackheads, zones.nose);
  const level = BLOBS.blackhead.levels.filter((l) => bhDensity >= l).length;
  const lv = BLOBS.blackhead.levels;
  members.blackhead = { value: level, confidence: round3(poreConf * scaleConf(level === 0 ? fades(bhDensity, lv[0]) : grows(bhDensity, lv[level - 1]))) };

  lap('pores');
  const lesionZone = zones.lesions;
  const plane = lesionPlane(lab);
  // Dark blobs no rule takes are followed by their finer re-measures (finer()), which only refinedSpot() may keep.
  const refined = new Set<Blob>();
  const dark = findBlobs(lab, { radii: BLOBS.lesionRadii.map((r) => r * s), polarity: 'dark', minResponse: BLOBS.lesionResponse, zone: lesionZone, detect: plane, noise: BLOBS.lesionRadii.map((r) => (r >= BLOBS.wideFrom ? BLOBS.wideNoise : BLOBS.noise)), layers: BLOBS.layers });
  const candidates = [
    ...dark.flatMap((b) => (lesionKind(b, s) ? [b] : [b, ...finer(lab, lesionZone, plane, b, s).map((m) => { refined.add(m); return m; })])),
    ...findBlobs(lab, { radii: BLOBS.lesionRadii.filter((r) => r <= 1.5).map((r) => r * s), polarity: 'bright', minResponse: BLOBS.lesionResponse, zone: lesionZone, noise: BLOBS.noise }),
  ];
  const lesions: Lesion[] = [];
  for (const b of candidates) {
    // The skin around a blob only makes the rules stricter: measured only for blobs some rule takes without it.
    if (!lesionKind(b, s)) continue;
    const near = around(lab, shine, lesionZone, b, s);
    const kind = lesionKind(b, s, near);
    if (!kind) continue;
    if (refined.has(b) && !refinedSpot(b, kind, near)) continue;
    if (lesions.some((l) => Math.hypot(l.blob.x - b.x, l.blob.y - b.y) < Math.max(l.blob.r, b.r))) continue;
    const [x0, y0] = toImage(f, b.x - 1.2 * b.r, b.y - 1.2 * b.r), [x1, y1] = toImage(f, b.x + 1.2 * b.r, b.y + 1.2 * b.r);
    lesions.push({ kind, blob: b, confidence: scaleConf(lesionConfidence(kind, b, near)), rect: { x0: Math.round(x0), y0: Math.round(y0), w: Math.max(1, Math.round(x1 - x0)), h: Math.max(1, Math.round(y1 - y0)) } });
  }

  lap('lesions');
  // Skin age (see skinAgeOf).
  const skinArea = zoneArea(zones.skin, s) / 100;
  const spotDensity = skinArea > 0 ? lesions.filter((l) => l.kind === 'skin_spot' || l.kind === 'mole').length / skinArea : 0;
  const melaninSpread = melanin90 - melanin10;
  const faceWidth = faceWidthMm(face, f.pxPerMm);
  const ageFeatures = ageFeaturesOf(wrinkles, pouch, spotDensity, melaninSpread, texture, faceWidth);

  return {
    frame: f, zones, members, skinType: st, skinAge: skinAgeOf(ageFeatures), lesions,
    measures: { ita, tShine, uShine, texture, wrinkles, pouch, darkCircle: dc, poreDensity, blackheadDensity: bhDensity, spotDensity, melaninSpread, faceWidth },
    ageFeatures,
    internals: { lab, fine, pig, shine, pores, blackheads, lines: allLines, candidates },
  };
}

export { makeFrame };
export type { RasterImage };
