/**
 * The lower garment's shape against the legs, for the learned parse (apparel-features.ts): trousers part
 * into two legs below the crotch, a skirt spans the gap between them down to its hem. Along each leg line
 * (hip → knee → ankle, t from 0 to 2) and along the line midway between them, it reads the matte, cloth of
 * the thighs' colour and the rules' skin; across the thighs and the knees, how many runs that cloth makes
 * and how wide it is against the hips.
 */
import { labDistance } from '../../../image/colour.ts';
import { dist, mid, type BodyFrame, type Pt } from './body-frame.ts';
import { L, MISSING, type Scene } from './scene.ts';
import { LEGS } from './learned-tuning.ts';

/** Heights along the legs (0 hips, 1 knees, 2 ankles) whose readings are features. */
export const LEG_STEPS = [0.5, 0.8, 1.1, 1.4] as const;
/** Names of the photo's readings (LegShape.photo), in order. */
export const LEG_PHOTO_FEATURES: readonly string[] = [
  ...LEG_STEPS.flatMap((t) => [`gapMatte${t}`, `gapCloth${t}`, `legCloth${t}`, `legSkin${t}`]),
  'hemT', 'gapHemT', 'thighRuns', 'thighWidth', 'kneeRuns', 'kneeWidth',
];
/** Heights scanned for the hems (LEGS.scan*, each to one decimal). */
const SCAN = Array.from({ length: LEGS.scanCount }, (_, i) => Math.round((LEGS.scanFrom + i * LEGS.scanStep) * 10) / 10);

export interface LegShape {
  /** The photo's readings, in the order of apparel-features.ts's names. */
  photo: number[];
  /** Per region: the largest scanned height at which it lies on the gap between the legs / on a leg line (0: never). */
  gapT: Float32Array; legT: Float32Array;
  /** A point's height along the legs, and where it lies across the gap (0 midway, 1 on a leg line; and in torso lengths). */
  place(p: Pt): { t: number; gap: number; dist: number };
}

/** Readings of a photo without a body frame. */
export const NO_LEGS = (regions: number): LegShape => ({
  photo: new Array<number>(LEG_PHOTO_FEATURES.length).fill(MISSING),
  gapT: new Float32Array(regions), legT: new Float32Array(regions),
  place: () => ({ t: MISSING, gap: MISSING, dist: MISSING }),
});

export function legShape(s: Scene, fg: Uint8Array, frame: BodyFrame, thigh: [number, number, number] | null): LegShape {
  const R = s.regions.length, unit = frame.torso;
  const cloth = new Uint8Array(R);
  for (let r = 0; r < R; r++) {
    const l = s.label[r];
    cloth[r] = fg[r] && l !== L.skin && l !== L.face && l !== L.hair && (!thigh || labDistance(s.regions[r].lab, thigh) < LEGS.clothDE) ? 1 : 0;
  }
  const regionAt = (p: Pt) => {
    const x = Math.round(p.x), y = Math.round(p.y);
    return x >= 0 && y >= 0 && x < s.width && y < s.height ? s.sp[y * s.width + x] : -1;
  };
  const lerp = (a: Pt, b: Pt, t: number) => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
  const legPoint = (i: number, t: number) => (t <= 1 ? lerp(frame.hips[i], frame.knees[i], Math.max(0, t)) : lerp(frame.knees[i], frame.ankles[i], Math.min(1, t - 1)));
  const gapT = new Float32Array(R), legT = new Float32Array(R);
  // Three samples across the gap (midway between the leg lines and halfway from there to each) and three across each leg line.
  const read = (t: number) => {
    const a = legPoint(0, t), b = legPoint(1, t), m = mid(a, b);
    let gapMatte = 0, gapCloth = 0, legCloth = 0, legSkin = 0, gn = 0, ln = 0;
    for (const u of LEGS.gapSamples) {
      const r = regionAt(lerp(m, b, u * 2));
      if (r < 0) continue;
      gn++; gapMatte += s.alpha[r]; gapCloth += cloth[r];
      if (u === 0 && t > gapT[r]) gapT[r] = t;
    }
    for (const leg of [a, b]) for (const dx of LEGS.legSamples) {
      const r = regionAt({ x: leg.x + dx * unit, y: leg.y });
      if (r < 0) continue;
      ln++; legCloth += cloth[r]; legSkin += s.label[r] === L.skin ? 1 : 0;
      if (dx === 0 && t > legT[r]) legT[r] = t;
    }
    return { gapMatte: gn ? gapMatte / gn : MISSING, gapCloth: gn ? gapCloth / gn : MISSING, legCloth: ln ? legCloth / ln : MISSING, legSkin: ln ? legSkin / ln : MISSING };
  };
  const scanned = new Map(SCAN.map((t) => [t, read(t)]));
  const photo: number[] = [];
  for (const t of LEG_STEPS) {
    const v = scanned.get(t) ?? read(t);
    photo.push(v.gapMatte, v.gapCloth, v.legCloth, v.legSkin);
  }
  // Hems: the first scanned height where the legs (the gap) stop being the thighs' cloth.
  const hem = (key: 'legCloth' | 'gapCloth') => SCAN.find((t) => { const v = scanned.get(t)![key]; return v !== MISSING && v < LEGS.hemCloth; }) ?? LEGS.hemNone;
  photo.push(hem('legCloth'), hem('gapCloth'));
  const hipWidth = Math.max(dist(...frame.hips), LEGS.minHips * unit);
  for (const t of LEGS.rows) {
    const a = legPoint(0, t), b = legPoint(1, t), y = Math.round((a.y + b.y) / 2);
    if (y < 0 || y >= s.height) { photo.push(MISSING, MISSING); continue; }
    const x0 = Math.max(0, Math.round(Math.min(a.x, b.x) - LEGS.rowMargin * unit)), x1 = Math.min(s.width - 1, Math.round(Math.max(a.x, b.x) + LEGS.rowMargin * unit));
    let runs = 0, on = 0, len = 0;
    for (let x = x0; x <= x1 + 1; x++) {
      const c = x <= x1 && cloth[s.sp[y * s.width + x]];
      if (c) { len++; on++; } else { if (len >= LEGS.minRun) runs++; len = 0; }
    }
    photo.push(runs, on / hipWidth);
  }
  const hy = (frame.hips[0].y + frame.hips[1].y) / 2, ky = (frame.knees[0].y + frame.knees[1].y) / 2, ay = (frame.ankles[0].y + frame.ankles[1].y) / 2;
  const place = (p: Pt) => {
    const t = p.y < ky ? (p.y - hy) / Math.max(1, ky - hy) : 1 + (p.y - ky) / Math.max(1, ay - ky);
    const tc = Math.max(0, Math.min(2, t));
    const a = legPoint(0, tc), b = legPoint(1, tc), m = mid(a, b);
    const half = Math.max(Math.abs(a.x - b.x) / 2, LEGS.minHalfGap * unit);
    return { t, gap: Math.abs(p.x - m.x) / half, dist: Math.abs(p.x - m.x) / unit };
  };
  return { photo, gapT, legT, place };
}
