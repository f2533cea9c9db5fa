/**
 * A person's body as a few points and lengths, from keypoints (and the face when keypoints are weak):
 * shoulders, hips, knees, ankles, elbows, wrists, with missing points filled from body proportions.
 * Garment zones (torso, arms, legs, feet) are measured against it.
 */
import type { Rect } from '../../../image/rect.ts';
import type { BodyPoint } from './human-run.ts';
import { BODY } from './tuning.ts';

export interface Pt { x: number; y: number }

export interface BodyFrame {
  shoulders: [Pt, Pt]; hips: [Pt, Pt]; knees: [Pt, Pt]; ankles: [Pt, Pt]; elbows: [Pt, Pt]; wrists: [Pt, Pt];
  /** Shoulder-centre to hip-centre distance. */
  torso: number;
  /** Shoulder width (at least half the torso length). */
  shoulderWidth: number;
  /** How many of the leg points were seen rather than guessed. */
  legsSeen: number;
  /** Whether a hip was seen: without one, the photo is taken to end above the lower garment. */
  hipsSeen: boolean;
  anklesSeen: boolean;
}

const mid = (a: Pt, b: Pt): Pt => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
const dist = (a: Pt, b: Pt) => Math.hypot(a.x - b.x, a.y - b.y);

/** null when neither keypoints nor a face place a person. */
export function bodyFrame(points: BodyPoint[], face?: Rect): BodyFrame | null {
  const get = (name: string): Pt | null => {
    const p = points.find((k) => k.name === name);
    return p && p.score >= BODY.minScore ? { x: p.x, y: p.y } : null;
  };
  const pair = (n: string) => [get(`left${n}`), get(`right${n}`)] as [Pt | null, Pt | null];
  let [ls, rs] = pair('Shoulder');
  let [lh, rh] = pair('Hip');
  const hipsSeen = !!(lh || rh);
  // A face alone places the shoulders (about two face widths apart, half a face below the chin).
  const fw = face ? face.w : 0;
  if (!ls && !rs) {
    if (!face) return null;
    const y = face.y0 + face.h * BODY.faceShoulderDrop, cx = face.x0 + face.w / 2;
    ls = { x: cx + fw * BODY.faceShoulderHalf, y }; rs = { x: cx - fw * BODY.faceShoulderHalf, y };
  }
  ls ??= { x: rs!.x + (face ? fw * BODY.faceShoulderSpan : BODY.fallbackShoulderSpan), y: rs!.y };
  rs ??= { x: ls.x - (face ? fw * BODY.faceShoulderSpan : BODY.fallbackShoulderSpan), y: ls.y };
  const sw = Math.max(dist(ls, rs), 1);
  if (!lh && !rh) {
    const c = mid(ls, rs), t = Math.max(sw * BODY.torsoPerShoulder, fw * BODY.torsoPerFace);
    lh = { x: c.x + sw * BODY.hipHalf, y: c.y + t }; rh = { x: c.x - sw * BODY.hipHalf, y: c.y + t };
  }
  lh ??= { x: rh!.x + sw * BODY.hipSpan, y: rh!.y };
  rh ??= { x: lh.x - sw * BODY.hipSpan, y: lh.y };
  const torso = Math.max(dist(mid(ls, rs), mid(lh, rh)), sw * BODY.minTorso);
  // A missing point of a pair copies its partner's offset from the joint above; a missing pair hangs
  // straight down from that joint by the usual proportion of the torso.
  const limb = (name: string, from: [Pt, Pt], length: number): [Pt, Pt] => {
    const [l, r] = pair(name);
    const down = (p: Pt) => ({ x: p.x, y: p.y + length });
    return [l ?? (r ? { x: from[0].x + (r.x - from[1].x), y: r.y } : down(from[0])), r ?? (l ? { x: from[1].x + (l.x - from[0].x), y: l.y } : down(from[1]))];
  };
  const knees = limb('Knee', [lh, rh], torso * BODY.thigh);
  const ankles = limb('Ankle', knees, torso * BODY.shin);
  const legsSeen = ['leftKnee', 'rightKnee', 'leftAnkle', 'rightAnkle'].filter((n) => get(n)).length;
  const elbows = limb('Elbow', [ls, rs], torso * BODY.upperArm);
  const wrists = limb('Wrist', elbows, torso * BODY.forearm);
  return { shoulders: [ls, rs], hips: [lh, rh], knees, ankles, elbows, wrists, torso, shoulderWidth: Math.max(sw, torso * BODY.minShoulderWidth), legsSeen, hipsSeen, anklesSeen: !!(get('leftAnkle') || get('rightAnkle')) };
}

/** Distance from p to the segment ab, and where along it (0..1) the nearest point lies. */
export function segmentDistance(p: Pt, a: Pt, b: Pt): { d: number; t: number } {
  const vx = b.x - a.x, vy = b.y - a.y;
  const len2 = vx * vx + vy * vy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * vx + (p.y - a.y) * vy) / len2)) : 0;
  return { d: Math.hypot(p.x - a.x - t * vx, p.y - a.y - t * vy), t };
}

export { mid, dist };
