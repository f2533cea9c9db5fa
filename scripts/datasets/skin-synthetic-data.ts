/**
 * Shared by the skin-analysis scripts that render synthetic findings (scripts/quality/skin-analysis.ts,
 * scripts/render/skin-synthetic.ts): where findings of each kind are placed on a face, what the analysis found,
 * and when a finding counts as the rendered one.
 */
import {
  COMEDONE_MIN_PX, frameToImage as toImage, seededRandom, type SkinAnalysis, type Synthetic, type SyntheticKind
} from '../../engine/for-scripts.ts';

export const SYNTHETIC_KINDS: readonly SyntheticKind[] = ['acne', 'closed_comedones', 'mole', 'skin_spot', 'wrinkle'];
/** Radius (blobs) or half-length (wrinkles) ranges, mm. */
export const SIZES: Record<SyntheticKind, [number, number]> = { acne: [0.8, 2], closed_comedones: [0.5, 1.1], mole: [0.8, 2.2], skin_spot: [1.5, 3.5], wrinkle: [8, 14] };
export const COUNT: Record<SyntheticKind, number> = { acne: 3, closed_comedones: 3, mole: 2, skin_spot: 3, wrinkle: 2 };

/** Places findings on skin (frame zone ≥ 0.5 all around), ≥ 4 mm apart; wrinkles across the forehead. */
export function place(a: SkinAnalysis, seed: number): Synthetic[] {
  const r = seededRandom(seed), f = a.frame, out: Synthetic[] = [];
  const at = (zone: Float32Array, x: number, y: number) => x >= 0 && y >= 0 && x < f.w && y < f.h && zone[Math.round(y) * f.w + Math.round(x)] >= 0.5;
  for (const kind of ['wrinkle', 'mole', 'skin_spot', 'acne', 'closed_comedones'] as SyntheticKind[]) {
    for (let n = 0, tries = 0; n < COUNT[kind] && tries < 4000; tries++) {
      const size = SIZES[kind][0] + r() * (SIZES[kind][1] - SIZES[kind][0]);
      const x = r() * f.w, y = r() * f.h;
      const zone = kind === 'wrinkle' ? a.zones.forehead : a.zones.skin;
      const reach = (kind === 'wrinkle' ? size : size * 2.6 + 1) * f.s;
      const ok = kind === 'wrinkle'
        ? [-1, -0.5, 0, 0.5, 1].every((t) => at(zone, x + Math.cos(f.roll) * t * reach, y + Math.sin(f.roll) * t * reach) && at(zone, x, y - 3 * f.s) && at(zone, x, y + 3 * f.s))
        : [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [0.7, 0.7], [-0.7, 0.7], [0.7, -0.7], [-0.7, -0.7]].every(([dx, dy]) => at(zone, x + dx * reach, y + dy * reach));
      if (!ok) continue;
      const [ix, iy] = toImage(f, x, y);
      if (out.some((o) => Math.hypot(o.x - ix, o.y - iy) / f.pxPerMm < (o.kind === 'wrinkle' || kind === 'wrinkle' ? 6 : 4) + o.size + size)) continue;
      out.push({ kind, x: ix, y: iy, size, angle: kind === 'wrinkle' ? f.roll : undefined });
      n++;
    }
  }
  return out;
}

export interface Tally { tp: number; fn: number; fp: number }
export const tally = (): Record<SyntheticKind, Tally> => Object.fromEntries(SYNTHETIC_KINDS.map((k) => [k, { tp: 0, fn: 0, fp: 0 }])) as Record<SyntheticKind, Tally>;

export type Found = { kind: SyntheticKind; x: number; y: number; r: number; x0?: number; y0?: number; x1?: number; y1?: number };
/** Findings in image pixels: lesions as centres, forehead lines as boxes. */
export function findings(a: SkinAnalysis): Found[] {
  const f = a.frame;
  const out: Found[] = a.lesions.map((l) => { const [x, y] = toImage(f, l.blob.x, l.blob.y); return { kind: l.kind as SyntheticKind, x, y, r: l.blob.r / f.k }; });
  for (const l of a.internals.lines.forehead_wrinkle) {
    const [x0, y0] = toImage(f, l.x0, l.y0), [x1, y1] = toImage(f, l.x1, l.y1);
    out.push({ kind: 'wrinkle', x: (x0 + x1) / 2, y: (y0 + y1) / 2, r: 0, x0, y0, x1, y1 });
  }
  return out;
}

/** Whether a finding lies on a rendered one (or on another finding): within max(1.5 mm, its radius); lines overlapping by 3 mm. */
export function near(d: Found, s: Synthetic | Found, pxPerMm: number): boolean {
  if (d.kind === 'wrinkle') {
    const sx0 = 'size' in s ? s.x - s.size * pxPerMm : s.x0!, sx1 = 'size' in s ? s.x + s.size * pxPerMm : s.x1!;
    const sy0 = 'size' in s ? s.y - 1.5 * pxPerMm : s.y0! - 1.5 * pxPerMm, sy1 = 'size' in s ? s.y + 1.5 * pxPerMm : s.y1! + 1.5 * pxPerMm;
    const ox = Math.min(d.x1!, sx1) - Math.max(d.x0!, sx0);
    return ox > 3 * pxPerMm && d.y >= sy0 && d.y <= sy1;
  }
  const r = 'size' in s ? s.size * pxPerMm : s.r;
  return Math.hypot(d.x - s.x, d.y - s.y) <= Math.max(1.5 * pxPerMm, r);
}

/**
 * Whether a rendered finding can be resolved in a frame of `s` px/mm: closed comedones need a radius of
 * COMEDONE_MIN_PX frame pixels (analyse.ts; below it the detector does not claim them); the other kinds
 * always count.
 */
export const resolvable = (it: Synthetic, s: number) => it.kind !== 'closed_comedones' || it.size * s >= COMEDONE_MIN_PX;

/**
 * Scores one rendering: rendered findings found (tp) or not (fn), and new findings on none (fp; those
 * already found on the clean photo are neither). Findings the frame (`frameScale` px/mm) cannot resolve
 * are tallied apart, in `unresolved` (found there is tp, not found fn), not as misses.
 */
export function score(items: readonly Synthetic[], got: readonly Found[], base: readonly Found[], pxPerMm: number, into: Record<SyntheticKind, Tally>,
  frameScale = Infinity, unresolved: Record<SyntheticKind, Tally> = tally()): { missed: Synthetic[]; extra: Found[] } {
  const used = new Set<Found>(), missed: Synthetic[] = [], extra: Found[] = [];
  for (const s of items) {
    const hit = got.find((g) => !used.has(g) && g.kind === s.kind && near(g, s, pxPerMm));
    const to = resolvable(s, frameScale) ? into : unresolved;
    if (hit) { used.add(hit); to[s.kind].tp++; } else { to[s.kind].fn++; missed.push(s); }
  }
  for (const g of got) {
    if (used.has(g)) continue;
    if (base.some((b) => b.kind === g.kind && near(g, b, pxPerMm))) continue;
    into[g.kind].fp++; extra.push(g);
  }
  return { missed, extra };
}
