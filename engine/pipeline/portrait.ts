/**
 * The template every portrait effect follows:
 *   1. which faces: the N largest (largest first), or the one a `face_rect` overlaps most (selectFaces);
 *   2. quality gates, where the endpoint has them;
 *   3. a per-face edit or measurement over the shared region masks (ctx.facts.regions(face));
 *   4. compositing, or the answer for an analysis.
 * Steps 1 and 3 are here; gates and compositing are the effect's own.
 */
import type { Rect } from '../image/rect.ts';
import { fromXywh, type XywhRect } from '../../contract/rectangles.ts';
import type { DetectOptions, Face } from '../vision/faces/detect.ts';
import { CodedError } from '../../contract/errors.ts';
import { keepOccluded } from '../looks/occlusion.ts';
import type { RasterImage } from '../image/raster.ts';
import { named, type Ctx, type Kit, type Step } from './effect.ts';

export interface FaceChoice {
  /** How many of the largest faces (default 1). */
  count?: number;
  /** Pick the face this rectangle overlaps most instead (the contract's `face_rect`, in its shape). */
  rect?: XywhRect;
  /** One face per entry instead, in entry order (lips-color-changer's lip_color_infos). */
  entries?: readonly FaceEntry[];
  detect?: DetectOptions;
}

/** A request entry's face: the one `rect` overlaps most, else the largest; `name` says which entry in a 422. */
export interface FaceEntry { rect?: XywhRect; name: string }

/** What selectFaces adds to a portrait effect's state. */
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

/** Each entry's face among all found, or 422 naming the first entry whose rect overlaps none. */
function entryFaces(all: readonly Face[], entries: readonly FaceEntry[]): Face[] {
  return entries.map((entry) => {
    const face = chooseFaces(all, { rect: entry.rect })[0];
    if (!face) throw new CodedError('ERROR_NO_FACE_IN_FILE', `no face was found inside ${entry.name}`);
    return face;
  });
}

/**
 * Step 1: the faces to work on, returned as `faces`, or 422 ERROR_NO_FACE_IN_FILE. With entries, one face per
 * entry (the same face for two entries that pick it).
 */
export const selectFaces = <P>(choose: (c: Ctx<P>) => FaceChoice): Step<P, object, PortraitState> => named('selectFaces', async (c: Ctx<P>) => {
  const choice = choose(c);
  let all = await c.facts.faces(choice.detect);
  if (all.length === 0) throw new CodedError('ERROR_NO_FACE_IN_FILE', 'no face was found in the image');
  if (choice.entries) {
    let faces = entryFaces(all, choice.entries);
    // Only the largest faces get a mesh by default; an entry's rect may pick a smaller one.
    if (faces.some((f) => !f.mesh)) {
      all = await c.facts.faces({ ...choice.detect, meshFaces: all.length });
      faces = entryFaces(all, choice.entries);
    }
    return { faces };
  }
  const faces = chooseFaces(all, choice);
  if (faces.length === 0) throw new CodedError('ERROR_NO_FACE_IN_FILE', 'no face was found inside the given face_rect');
  return { faces };
});

/** Step 3: `each` over the selected faces in order, stopping between faces once the job is aborted. */
export async function eachFace(faces: readonly Face[], kit: Kit, each: (face: Face, index: number) => Promise<void> | void): Promise<void> {
  for (let i = 0; i < faces.length; i++) {
    if (kit.signal.aborted) return;
    await each(faces[i], i);
  }
}

/** How far an edit fades in from an occluder's edge, in face widths. */
const OCCLUDER_FEATHER = 0.03;

/**
 * After the per-face edits: the photo's own pixels back over whatever covers each edited face, the edit fading
 * in from their edge. `result` holds the edited pixels, the input's size and channels. Faces without mesh were
 * not edited and have no occlusion to keep. `which`: 'all', what is held in front of the face (JobFacts.hands
 * and JobFacts.objects: hands, phones, microphones) and everything the occlusion mask finds (JobFacts.occlusion:
 * hair over the eyes...); 'held', the held things alone, for effects whose edits the occlusion mask's false
 * alarms on unoccluded faces would spoil (it takes dark beards and shaded cheeks for occluders;
 * docs/experiments/occlusion.md). The held things' masks are empty unless a model finds something, so an
 * unoccluded face's edit is what it was without them.
 */
export async function keepOccluders<P>(c: Ctx<P>, result: Pick<RasterImage, 'data'>, faces: readonly Face[], which: 'all' | 'held' = 'all'): Promise<void> {
  const occluders = [];
  for (const face of faces) {
    const m = face.mesh;
    if (!m) continue;
    const fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
    const feather = Math.max(2, OCCLUDER_FEATHER * fw);
    occluders.push({ mask: await c.facts.hands(face), feather });
    occluders.push({ mask: await c.facts.objects(face), feather });
    if (which === 'all') occluders.push({ mask: await c.facts.occlusion(face), feather });
  }
  keepOccluded({ ...c.image, data: result.data }, c.image, occluders);
}
