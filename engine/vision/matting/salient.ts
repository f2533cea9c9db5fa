/**
 * The salient object's matte: ISNet, with a second look when the first finds nothing. ISNet looks for an
 * object with background around it; when the subject fills the frame and is cut by its borders (close-ups,
 * tight crops) it often finds nothing. The second look extends every side (edge pixels repeated, so no
 * artificial frame appears) to give it that context. It costs a second model run, but only on photos where
 * the first one found (almost) nothing.
 */
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { predict, type IsnetModel, type Prediction } from '../models/isnet.ts';

/** Below this share of confident foreground, the first look counts as "found nothing". */
export const MIN_COVERAGE = 0.01;
/** How far each side is extended for the second look, as a fraction of that side. */
export const CONTEXT = 1 / 3;

/** The share of the matte that is confident foreground (>= 128). */
export function coverage(m: Mask): number {
  let n = 0;
  for (let i = 0; i < m.data.length; i++) if (m.data[i] >= 128) n++;
  return n / m.data.length;
}

/**
 * ISNet's matte of the image and the RGB it saw, on one grid that covers exactly the image; from the
 * second look (with context) when the first found nothing and the second found more. `retried`: whether
 * the second look was run.
 */
export async function salientMatte(model: IsnetModel, image: RasterImage): Promise<Prediction & { retried: boolean }> {
  const first = await predict(model, image);
  const found = coverage(first.matte);
  if (found >= MIN_COVERAGE) return { ...first, retried: false };
  const again = await predict(model, image, CONTEXT);
  return { ...(coverage(again.matte) > found ? again : first), retried: true };
}
