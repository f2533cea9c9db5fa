/**
 * Synthetic skin findings of known size and place, rendered into a photo in Lab (for the quality script
 * and the kernels' tests): a change of L*, a*, b* under a profile in millimetres, so the ground truth is
 * exact. Acne: a red dome; closed comedone: a small whitish dome raised under the skin, lit from above (its
 * upper slope lighter with a small highlight, its lower slope and the skin just below it in shadow); mole:
 * a dark brown disc with a sharp edge; skin spot: a paler brown patch with a soft edge; wrinkle: a dark
 * line with a Gaussian cross-section.
 */
import type { RasterImage } from '../../../image/raster.ts';
import { labToRgb, rgbToLab } from '../../../image/colour.ts';

export type SyntheticKind = 'acne' | 'closed_comedones' | 'mole' | 'skin_spot' | 'wrinkle';

export interface Synthetic {
  kind: SyntheticKind;
  /** Centre in image pixels. */
  x: number; y: number;
  /** Radius (blobs) or half-length (wrinkles), mm. */
  size: number;
  /** Wrinkles: direction, radians. */
  angle?: number;
}

/** Lab change at the profile's peak, per kind. */
export const LOOK: Record<SyntheticKind, { dL: number; da: number; db: number }> = {
  acne: { dL: -4, da: 11, db: 3 },
  closed_comedones: { dL: 5, da: -1, db: -1.5 },
  mole: { dL: -28, da: 3, db: 5 },
  skin_spot: { dL: -9, da: 1, db: 6 },
  wrinkle: { dL: -9, da: 1, db: 0 },
};

/**
 * A closed comedone's relief under light from above (image up), L*: the dome's slopes lighter above and
 * darker below by up to `slope`, a shadow of `shadow` cast on the skin just below its rim, and a small
 * pale highlight of `highlight` on its upper slope. Zero mean over the dome: relief, not a change of colour.
 */
export const COMEDONE_RELIEF = { slope: 2.5, shadow: 1.5, highlight: 3 };

function comedoneRelief(dx: number, dy: number, r: number): { dL: number; pale: number } {
  const d = Math.hypot(dx, dy), R = COMEDONE_RELIEF;
  let dL = 0;
  if (d < r) dL -= R.slope * (dy / r);
  else if (d < 1.3 * r && dy > 0) dL -= R.shadow * (dy / d) * (1 - (d - r) / (0.3 * r));
  const hx = dx, hy = dy + 0.4 * r, sigma = Math.max(0.06, 0.18 * r);
  const pale = Math.exp(-(hx * hx + hy * hy) / (2 * sigma * sigma));
  return { dL: dL + R.highlight * pale, pale };
}

/** Profile 0..1 at distance d (mm) from the centre of a finding of radius r (mm). */
function profile(kind: SyntheticKind, d: number, r: number): number {
  switch (kind) {
    case 'acne': case 'closed_comedones': return d >= r ? 0 : Math.sqrt(1 - (d / r) ** 2); // a dome
    case 'mole': return 1 / (1 + Math.exp((d - r) / 0.08)); // edge about 0.3 mm wide
    case 'skin_spot': return 1 / (1 + Math.exp((d - r) / 0.35));
    case 'wrinkle': return Math.exp(-(d * d) / (2 * 0.3 * 0.3)); // σ 0.3 mm across
  }
}

/** Renders the findings into a copy of the image (pxPerMm: image pixels per mm). */
export function renderSynthetic(image: RasterImage, items: readonly Synthetic[], pxPerMm: number): RasterImage {
  const out: RasterImage = { ...image, data: Buffer.from(image.data) };
  const ch = image.channels, lab = [0, 0, 0], rgb = [0, 0, 0];
  for (const it of items) {
    const look = LOOK[it.kind];
    const ux = Math.cos(it.angle ?? 0), uy = Math.sin(it.angle ?? 0);
    const reach = (it.kind === 'wrinkle' ? it.size + 1.5 : it.size * 1.3 + 1) * pxPerMm;
    for (let y = Math.max(0, Math.floor(it.y - reach)); y <= Math.min(image.height - 1, Math.ceil(it.y + reach)); y++) {
      for (let x = Math.max(0, Math.floor(it.x - reach)); x <= Math.min(image.width - 1, Math.ceil(it.x + reach)); x++) {
        const dx = (x + 0.5 - it.x) / pxPerMm, dy = (y + 0.5 - it.y) / pxPerMm;
        let p: number;
        if (it.kind === 'wrinkle') {
          const along = dx * ux + dy * uy, across = -dx * uy + dy * ux;
          // Tapered ends over the last 2 mm, as real lines fade out.
          const end = Math.max(0, Math.min(1, (it.size - Math.abs(along)) / 2));
          p = profile('wrinkle', across, 0) * end;
        } else p = profile(it.kind, Math.hypot(dx, dy), it.size);
        const relief = it.kind === 'closed_comedones' ? comedoneRelief(dx, dy, it.size) : { dL: 0, pale: 0 };
        if (p < 0.01 && Math.abs(relief.dL) < 0.05) continue;
        const j = (y * image.width + x) * ch;
        rgbToLab(out.data[j], out.data[j + 1], out.data[j + 2], lab);
        // The highlight takes some of the light's own colour: chroma drops under it.
        const keep = 1 - 0.3 * relief.pale;
        labToRgb(lab[0] + look.dL * p + relief.dL, (lab[1] + look.da * p) * keep, (lab[2] + look.db * p) * keep, rgb);
        out.data[j] = rgb[0]; out.data[j + 1] = rgb[1]; out.data[j + 2] = rgb[2];
      }
    }
  }
  return out;
}
