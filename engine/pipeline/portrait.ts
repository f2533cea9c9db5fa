/**
 * The template every portrait effect follows:
 *   1. which faces: the N largest (largest first), or the one a `face_rect` overlaps most (selectFaces);
 *   2. quality gates, where the endpoint has them;
 *   3. a per-face edit or measurement over the shared region masks (ctx.facts.regions(face));
 *   4. compositing, or the answer for an analysis.
 * Steps 1 and 3 are here; gates and compositing are the effect's own.
 */
import { fromXywh, type Rect, type XywhRect } from '../image/rect.ts';
import type { DetectOptions, Face } from '../vision/faces/detect.ts';
import { EffectError, named, type Ctx, type Kit, type Step } from './effect.ts';

export interface FaceChoice {
  /** How many of the largest faces (default 1). */
  count?: number;
  /** Pick the face this rectangle overlaps most instead (the contract's `face_rect`, in its shape). */
  rect?: XywhRect;
  detect?: DetectOptions;
}

/** What a portrait effect's state holds after selectFaces. */
export interface PortraitState { faces: Face[] }

const overlap = (a: Rect, b: Rect) =>
  Math.max(0, Math.min(a.x0 + a.w, b.x0 + b.w) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y0 + a.h, b.y0 + b.h) - Math.max(a.y0, b.y0));

/** The chosen faces among all found (which come largest first). A rect that overlaps no face picks none. */
export function chooseFaces(faces: readonly Face[], choice: FaceChoice): Face[] {
  if (choice.rect) {
    const rect = fromXywh(choice.rect);
    const best = faces.reduce<Face | undefined>((b, f) => (overlap(f.box, rect) > (b ? overlap(b.box, rect) : 0) ? f : b), undefined);
    return best ? [best] : [];
  }
  return faces.slice(0, Math.max(1, choice.count ?? 1));
}

/** Step 1: the faces to work on into state.faces, or 422 ERROR_NO_FACE_IN_FILE. */
export const selectFaces = <P, S extends PortraitState>(choose: (c: Ctx<P, S>) => FaceChoice): Step<P, S> => named('selectFaces', async (c) => {
  const choice = choose(c);
  const all = await c.facts.faces(choice.detect);
  if (all.length === 0) throw new EffectError('ERROR_NO_FACE_IN_FILE', 'no face was found in the image');
  const faces = chooseFaces(all, choice);
  if (faces.length === 0) throw new EffectError('ERROR_NO_FACE_IN_FILE', 'no face was found inside the given face_rect');
  c.state.faces = faces;
});

/** Step 3: runs `each` over the selected faces in order, checking the abort signal between faces. */
export const perFace = <P, S extends PortraitState>(each: (face: Face, index: number, c: Ctx<P, S>, kit: Kit) => Promise<void> | void): Step<P, S> =>
  async (c, kit) => {
    const faces = c.state.faces ?? [];
    for (let i = 0; i < faces.length; i++) {
      if (kit.signal.aborted) return;
      await each(faces[i], i, c, kit);
    }
  };
