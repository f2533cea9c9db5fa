/**
 * What the face parsing's hair says in the head frame: how much of the scalp it covers (no hair to lose
 * under a hat), whether it runs past the parsed square, whether long hair hangs beside the head, whether
 * bangs cover the forehead, and where the person's own hairline lies.
 */
import type { Rect } from '../../image/rect.ts';
import { fromHead, SKULL, skullSpan, toHead, type HeadFrame, type SkullSpan } from './hairline.ts';
import { HEAD_BELOW, BESIDE_PATCH, EDGE_SHARE, FOREHEAD_PATCH, HAIRLINE_SCAN, PROBES, PROBES_HIT, SCALP_PATCH, SCAN_STEP } from './tuning.ts';

export interface HairMaps {
  /** Probabilities 0..1 over the window. */
  hair: Float32Array; skin: Float32Array; background: Float32Array;
  /** The person matte, 0..1, when known: hair on the person is theirs however far it stands out. */
  person?: Float32Array;
}

/**
 * Share of the scalp the parsing calls hair (≥ 0.5): points over the top of the usual skull (|u| ≤ 0.8,
 * v 1.05..1.45), those inside the photo. A hat, a headscarf or a bald head leave little; even a receding
 * hairline keeps the crown and the sides.
 */
export function hairCover(f: HeadFrame, hair: Float32Array, win: Rect): number {
  let seen = 0, on = 0;
  for (let u = SCALP_PATCH.u0; u <= SCALP_PATCH.u1; u += SCALP_PATCH.du) {
    for (let v = SCALP_PATCH.v0; v <= SCALP_PATCH.v1; v += SCALP_PATCH.dv) {
      const [x, y] = fromHead(f, u, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
      seen++;
      if (hair[yi * win.w + xi] >= 0.5) on++;
    }
  }
  return seen ? on / seen : 0;
}

/**
 * Whether the parsing's hair runs into its window's top or side edges (over more than 2 % of them): then
 * the hair goes on outside what was parsed. The photo's own edges count too (nothing lies beyond them).
 */
export function hairAtEdge(hair: Uint8Array | undefined, win: Rect): boolean {
  if (!hair) return false;
  let on = 0;
  for (let x = 0; x < win.w; x++) if (hair[x] >= 128 || hair[win.w + x] >= 128) on++;
  for (let y = 0; y < win.h; y++) {
    const r = y * win.w;
    if (hair[r] >= 128 || hair[r + 1] >= 128) on++;
    if (hair[r + win.w - 1] >= 128 || hair[r + win.w - 2] >= 128) on++;
  }
  return on > EDGE_SHARE * (win.w + 2 * win.h);
}

/**
 * Whether long hair hangs beside the head, on the side below the skull's centre (u) and the one above: the
 * parsing sees hair over at least half of a patch just outside the skull, level with the ears (v -0.8..-0.2),
 * among its points inside the photo. Long hair falling from the top covers it; short hair leaves the ears
 * and the backdrop there.
 */
export function hangsBeside(f: HeadFrame, skull: SkullSpan, maps: HairMaps, win: Rect): [boolean, boolean] {
  const side = (sign: number) => {
    let seen = 0, on = 0;
    for (const du of BESIDE_PATCH.du) {
      for (let v = BESIDE_PATCH.v0; v <= BESIDE_PATCH.v1; v += BESIDE_PATCH.dv) {
        const [x, y] = fromHead(f, skull.u0 + sign * (skull.a + du), v);
        const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
        if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
        seen++;
        if (maps.hair[yi * win.w + xi] >= 0.5) on++;
      }
    }
    return seen > 0 && on >= 0.5 * seen;
  };
  return [side(-1), side(1)];
}

/**
 * Share of the forehead (|u| ≤ 0.6 off the middle, v 0.3..0.75) the parsing calls hair (≥ 0.5), among its
 * points inside the photo: bangs cover much of it, a hairline (even a low one at the temples) little.
 */
export function fringeCover(f: HeadFrame, maps: HairMaps, win: Rect): number {
  let seen = 0, on = 0;
  for (let du = FOREHEAD_PATCH.u0; du <= FOREHEAD_PATCH.u1; du += FOREHEAD_PATCH.du) {
    for (let v = FOREHEAD_PATCH.v0; v <= FOREHEAD_PATCH.v1; v += FOREHEAD_PATCH.dv) {
      const [x, y] = fromHead(f, f.mid + du, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi < 0 || yi < 0 || xi >= win.w || yi >= win.h) continue;
      seen++;
      if (maps.hair[yi * win.w + xi] >= 0.5) on++;
    }
  }
  return seen ? on / seen : 0;
}

/** Where the hair begins over the middle of the forehead (v), or null when no hair is found there. */
export function ownHairline(f: HeadFrame, maps: HairMaps, win: Rect): number | null {
  for (let v = HAIRLINE_SCAN.from; v <= HAIRLINE_SCAN.to; v += SCAN_STEP) {
    let hits = 0;
    for (const du of PROBES) {
      const [x, y] = fromHead(f, f.mid + du, v);
      const xi = Math.floor(x) - win.x0, yi = Math.floor(y) - win.y0;
      if (xi >= 0 && yi >= 0 && xi < win.w && yi < win.h && maps.hair[yi * win.w + xi] >= 0.5) hits++;
    }
    if (hits >= PROBES_HIT) return v;
  }
  return null;
}

/**
 * The pixels of `win` that belong to another face's head: nearer that face's skull (its ellipse in its own
 * head frame, reaching HEAD_BELOW under its centre) than this face's. A group photo's neighbour's hair
 * beside this head is theirs, not this head's to thin or fill.
 */
export function otherHeads(f: HeadFrame, others: HeadFrame[], win: Rect): Uint8Array {
  const out = new Uint8Array(win.w * win.h);
  if (!others.length) return out;
  const distance = (fr: HeadFrame, sk: SkullSpan, x: number, y: number) => {
    const [u, v] = toHead(fr, x, y);
    return Math.hypot((u - sk.u0) / sk.a, (v - SKULL.v0) / (v >= SKULL.v0 ? sk.top - SKULL.v0 : HEAD_BELOW));
  };
  const own = skullSpan(f.mid, f.down), theirs = others.map((fr) => ({ fr, sk: skullSpan(fr.mid, fr.down) }));
  for (let y = 0, i = 0; y < win.h; y++) for (let x = 0; x < win.w; x++, i++) {
    const px = win.x0 + x + 0.5, py = win.y0 + y + 0.5, mine = distance(f, own, px, py);
    if (theirs.some((o) => distance(o.fr, o.sk, px, py) < mine)) out[i] = 1;
  }
  return out;
}
