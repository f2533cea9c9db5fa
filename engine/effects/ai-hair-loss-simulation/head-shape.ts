/**
 * The bald head's outline in the head frame: the skull's top read from where short hair ends, and the
 * head's reach in every direction from the person matte's outline less a hair's thickness.
 */
import type { Rect } from '../../image/rect.ts';
import { fromHead, SKULL, smooth, type HeadFrame, type SkullSpan } from './hairline.ts';
import type { HairMaps } from './hair-maps.ts';
import { ANGLES, BELOW_CENTRE, HAIR_THICKNESS, HEAD_MAX, HEAD_MIN, HEAD_WINDOW, OUTLINE_SMOOTH, OUTLINE_SOFT, PROBES, PROBES_HIT, REACH_STEP, SCAN_STEP, SHORT_HAIR, SKULL_SCAN_FROM, TOP_LEAST, TOP_RAISE } from './tuning.ts';

/**
 * The top of the skull (v): a little below where the hair ends over the skull's centre (not over the
 * forehead's middle: on a turned head that is the front of the head, curving down) when that is
 * under a little above the usual height (short hair), else about the usual height (big hair, or the top
 * outside the parsing).
 */
export function skullTop(f: HeadFrame, skull: SkullSpan, maps: HairMaps, win: Rect): number {
  let last = -1;
  for (let v = SKULL_SCAN_FROM; v <= Math.max(HEAD_WINDOW.top, skull.top + HEAD_WINDOW.aboveSkull); v += SCAN_STEP) {
    let hits = 0, known = 0;
    for (const du of PROBES) {
      const [x, y] = fromHead(f, skull.u0 + du, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
      known++;
      if (maps.hair[yi * win.w + xi] >= 0.5) hits++;
    }
    if (known === 0) break; // the photo's top edge
    if (hits >= PROBES_HIT) last = v;
  }
  if (last < 0) return skull.top;
  // Short hair lies about a tenth of a forehead height thick over a skull a little above the usual height
  // (the frame's usual 1.6 left a band of filled-in background under the top of short hair); under big hair,
  // back to the usual height (a taller guess under a mop of curls shows as an egg).
  const raised = skull.top + TOP_RAISE;
  if (last - SHORT_HAIR <= raised) return Math.max(TOP_LEAST, last - SHORT_HAIR);
  return Math.max(skull.top, raised - (last - SHORT_HAIR - raised));
}

/**
 * The bald head's outline: for each direction from the skull's centre (in the frame's skull-normalised
 * space, where the usual skull is the unit circle), how far the head reaches: the person's own outline less
 * a hair's thickness (short hair hugs the skull; a close crop's head goes on past the photo's edge), not
 * inside the usual skull unless the person ends there, nor past one a little larger (big hair stands far off the head), smoothed over
 * the angle so the outline is round, not the hair's tufts.
 */
export interface HeadShape { reach: Float32Array; top: number; skull: SkullSpan }
export function headShape(f: HeadFrame, top: number, skull: SkullSpan, maps: HairMaps, win: Rect): HeadShape {
  const reach = new Float32Array(ANGLES), b = top - SKULL.v0;
  const thick = (HAIR_THICKNESS * 2) / skull.a;
  for (let k = 0; k < ANGLES; k++) {
    const t = (2 * Math.PI * k) / ANGLES, c = Math.cos(t), sn = Math.sin(t);
    if (sn < BELOW_CENTRE || !maps.person) { reach[k] = 1; continue; }
    // Scanned past the largest head as far as big hair still moves the guess (see below).
    let r = HEAD_MIN, cut = false;
    for (; r < 2 * HEAD_MAX - 1 + thick; r += REACH_STEP) {
      const [x, y] = fromHead(f, skull.u0 + skull.a * r * c, SKULL.v0 + b * r * sn);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) { cut = true; break; }
      if (maps.person[yi * win.w + xi] < 0.5) break;
    }
    const own = r - thick;
    // Where the photo cuts the head, it reaches at least that far (the hair's outline is not seen), up to
    // the largest head (less a hair's thickness when the cut lies beyond it); where the person ends inside
    // the usual skull (the far side of a turned head), the head ends there. Where the hair's outline is seen
    // further out than the largest head (big hair), it says nothing of the head's: the guess goes back
    // toward the usual skull as the hair grows (as skullTop's does), instead of the largest head, whose
    // scalp came out as flat bulges over the temples of a spiky mop.
    if (cut) reach[k] = r < HEAD_MAX ? Math.max(1, r) : HEAD_MAX - thick;
    else reach[k] = r >= 1 + thick ? (own <= HEAD_MAX ? own : Math.max(1, 2 * HEAD_MAX - own)) : Math.max(HEAD_MIN, Math.min(1, r));
  }
  // Smoothed over about 20 degrees either way (three box passes), round the circle.
  let cur = reach;
  for (let pass = 0; pass < OUTLINE_SMOOTH.passes; pass++) {
    const next = new Float32Array(ANGLES), R = OUTLINE_SMOOTH.radius;
    for (let k = 0; k < ANGLES; k++) {
      let sum = 0;
      for (let d = -R; d <= R; d++) sum += cur[(k + d + ANGLES) % ANGLES];
      next[k] = sum / (2 * R + 1);
    }
    cur = next;
  }
  return { reach: cur, top, skull };
}

/** The head's reach (skull-normalised radius) toward frame point (u, v), and the point's own radius. */
export function headReach(shape: HeadShape, u: number, v: number): [number, number] {
  const x = (u - shape.skull.u0) / shape.skull.a, y = (v - SKULL.v0) / (shape.top - SKULL.v0);
  const t = Math.atan2(y, x), p = ((t < 0 ? t + 2 * Math.PI : t) / (2 * Math.PI)) * ANGLES;
  const k0 = Math.floor(p) % ANGLES, k1 = (k0 + 1) % ANGLES, w = p - Math.floor(p);
  const reach = shape.reach[k0] * (1 - w) + shape.reach[k1] * w;
  return [reach, y < 0 ? Math.abs(x) : Math.hypot(x, y)];
}

/** Inside the bald head's outline, 0..1, soft over a few hundredths of the skull. */
export function headOutline(shape: HeadShape, U: Float32Array, V: Float32Array): Float32Array {
  const out = new Float32Array(U.length);
  for (let i = 0; i < U.length; i++) {
    const [reach, r] = headReach(shape, U[i], V[i]);
    out[i] = smooth((reach - r) / OUTLINE_SOFT + 0.5);
  }
  return out;
}
