/**
 * A garment photographed alone (flat lay, ghost mannequin, product shot): the foreground is the garment,
 * and its class follows from its silhouette.
 */
import { L, type Scene } from './scene.ts';

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
  const top = row(0.1), upper = row(0.3), middle = row(0.5), low = row(0.85);
  const aspect = h / w;
  // Two legs all the way down the lower half: trousers.
  if (low.runs >= 2 && row(0.7).runs >= 2 && aspect > 0.9) return 'pants';
  if (aspect < 0.75 && low.runs >= 2) return 'shoes';
  if (aspect < 0.8 && top.filled < 0.7 && low.filled > 0.8) return 'hat';
  // Sleeves: the upper part is much wider than the middle body.
  const sleeves = upper.runs >= 3 || (upper.filled > 0.8 && middle.filled < 0.65);
  if (!sleeves && low.filled > middle.filled * 1.05 && top.filled < 0.8 && aspect > 0.7) return 'skirt';
  if (!sleeves && top.runs <= 1 && top.filled < 0.5 && aspect < 1.3 && middle.filled > 0.7) return 'bag';
  if (aspect > 1.25) return 'coat';
  return 'tops';
}
