/**
 * A garment photographed alone (flat lay, ghost mannequin, product shot): the foreground is the garment,
 * and its class follows from its silhouette.
 */
import { L, type Scene } from './scene.ts';
import { ALONE } from './tuning.ts';

export function garmentAlone(s: Scene, fg: Uint8Array) {
  const { width, height } = s;
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) mask[i] = fg[s.sp[i]];
  const label = L[classify(mask, width, height)];
  for (let r = 0; r < fg.length; r++) if (fg[r]) s.label[r] = label;
}

type Alone = 'tops' | 'coat' | 'skirt' | 'pants' | 'bag' | 'shoes' | 'hat';

/** Silhouette rules: widths of the shape at a few heights, splits at the bottom, the aspect ratio. */
export function classify(mask: Uint8Array, width: number, height: number): Alone {
  let x0 = width, x1 = -1, y0 = height, y1 = -1;
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (mask[y * width + x]) {
    if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
  }
  if (x1 < 0) return 'tops';
  const w = x1 - x0 + 1, h = y1 - y0 + 1;
  const row = (f: number) => {
    const y = Math.min(y1, Math.round(y0 + f * (h - 1)));
    let filled = 0, runs = 0, prev = 0;
    for (let x = x0; x <= x1; x++) { const v = mask[y * width + x]; filled += v; if (v && !prev) runs++; prev = v; }
    return { filled: filled / w, runs };
  };
  const top = row(ALONE.rows.top), upper = row(ALONE.rows.upper), middle = row(ALONE.rows.middle), low = row(ALONE.rows.low);
  const aspect = h / w;
  const runsBelow = ALONE.legRows.map((f) => row(f).runs);
  // Sleeves: three pieces side by side somewhere (arm, body, arm), or shoulders much wider than the body.
  const sleeves = ALONE.sleeveRows.some((f) => row(f).runs >= ALONE.sleeveRuns) || (upper.filled > ALONE.sleeveShoulders && middle.filled < ALONE.sleeveMiddle);
  // A handle: background enclosed by the shape.
  if (!sleeves && hasHole(mask, width, height, x0, y0, x1, y1) && aspect < ALONE.bagAspect) return 'bag';
  // Two legs all the way down the lower half, one piece at the waist: trousers.
  if (!sleeves && runsBelow.filter((n) => n === 2).length >= ALONE.legRowsTwo && top.runs === 1 && aspect > ALONE.pantsAspect) return 'pants';
  if (aspect < ALONE.shoesAspect && low.runs >= 2) return 'shoes';
  if (aspect < ALONE.hatAspect && top.filled < ALONE.hatTop && low.filled > ALONE.hatLow) return 'hat';
  if (!sleeves && low.filled > middle.filled * ALONE.skirtFlare && top.filled < ALONE.skirtTop && aspect > ALONE.skirtAspect) return 'skirt';
  if (aspect < ALONE.shoesAspect) return 'shoes';
  return aspect > ALONE.coatAspect ? 'coat' : 'tops';
}

/** Whether the background inside the shape's box has a piece that does not reach the box's edge. */
function hasHole(mask: Uint8Array, width: number, _height: number, x0: number, y0: number, x1: number, y1: number): boolean {
  const w = x1 - x0 + 1, h = y1 - y0 + 1;
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let s = 0; s < w * h; s++) {
    if (seen[s] || mask[(y0 + Math.floor(s / w)) * width + x0 + (s % w)]) continue;
    let size = 0, edge = false;
    seen[s] = 1; stack.push(s);
    while (stack.length) {
      const i = stack.pop()!;
      size++;
      const x = i % w, y = Math.floor(i / w);
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) edge = true;
      for (const [nx, ny] of [[x - 1, y], [x + 1, y], [x, y - 1], [x, y + 1]]) {
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        const j = ny * w + nx;
        if (!seen[j] && !mask[(y0 + ny) * width + x0 + nx]) { seen[j] = 1; stack.push(j); }
      }
    }
    if (!edge && size > w * h * ALONE.holeShare) return true;
  }
  return false;
}
