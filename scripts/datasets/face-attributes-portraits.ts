/**
 * The faces of the shared portraits and exemplars as the face analyzer sees them, for the by-eye attribute
 * labels (scripts/quality/face-attributes.labels.json): the faces found the analyzer's way (jobFacts, the
 * attribute faces meshed, largest first, up to 5 per photo), and per photo what the part measures read
 * (part-inputs.ts: the working copy, its faces, their parsings and the hair mask). Detection, parsing and
 * the hair matte are the slow part, so they are kept under /tmp/face-attributes/portraits (v8-serialised;
 * `fresh` ignores it); the measures themselves run on every call, so a change to them needs no new cache.
 *
 * Faces are keyed `<testdata path>#<index>` by size order (0 the largest), as the answer lists them.
 * The split is by file with half() of face-parts-data.ts (sha1 of the path, fixed before any tuning).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { FACE_ATTRIBUTE_FACES } from '../../contract/face-attributes.ts';
import { ANALYZER_PARSING, type Face, jobFacts, type ModelRegistry, partInputs, type RasterImage } from '../../engine/for-scripts.ts';
import { half, loadImage, type Half } from './face-parts-data.ts';

export type PartInputs = Awaited<ReturnType<typeof partInputs>>;

export interface PortraitPhoto {
  rel: string;
  half: Half;
  image: RasterImage;
  /** The attribute faces in photo pixels, largest first. */
  faces: Face[];
  /** What the part measures read (null when no face has a mesh). */
  parts: PartInputs | null;
}

export const CACHE = process.env.ATELIER_ATTR_PORTRAITS_CACHE ?? '/tmp/face-attributes/portraits';

/** Every shared portrait and exemplar photo (sorted). */
export function portraitList(testdata: string): string[] {
  const list = (dir: string) => (existsSync(path.join(testdata, dir))
    ? readdirSync(path.join(testdata, dir)).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().map((f) => `${dir}/${f}`)
    : []);
  return [...list('portraits'), ...list('exemplars')];
}

export async function portraitPhoto(models: ModelRegistry, testdata: string, rel: string, fresh = false): Promise<PortraitPhoto> {
  const file = path.join(CACHE, rel.replace(/[^\w.-]/g, '_') + '.v8');
  const image = await loadImage(testdata, rel);
  if (!fresh && existsSync(file)) {
    const c = deserialize(readFileSync(file)) as Omit<PortraitPhoto, 'image' | 'half'>;
    return { ...c, image, half: half(rel) };
  }
  // As the analyzer's findFaces asks for them (no turned search), the 5 largest.
  const faces = (await jobFacts(image, models).faces({ meshFaces: FACE_ATTRIBUTE_FACES })).slice(0, FACE_ATTRIBUTE_FACES);
  const parts = faces.some((f) => f.mesh) ? await partInputs(models, image, faces, ANALYZER_PARSING, { hair: true }) : null;
  const d = { rel, faces, parts };
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(file, serialize(d));
  return { ...d, image, half: half(rel) };
}
