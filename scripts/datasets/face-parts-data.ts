/**
 * The shared test faces for the part attributes (scripts/quality/face-parts.ts): each meshed face of the
 * portraits and the UTKFace chips, with its parsing and the photo's hair mask, on the working copy the face
 * analyzer measures (part-inputs.ts; ATELIER_PARTS_FULL_RES=1: at full resolution, each face parsed alone;
 * ATELIER_PARSE_INPUT: another parser input side; ATELIER_PARSE_INT8=1: the parser's int8 network; ATELIER_RVM_SIDE: another RVM side for the hair mask; ATELIER_HAIR_MATTE: another person matte model for it). Detection, parsing and the
 * person matte are the slow part (about 2 s a photo on 2 shared cores), so they are kept in a cache under
 * /tmp/face-parts/cache (v8-serialised; --fresh in the quality script ignores it).
 *
 * The split is by file name only, fixed before anything was measured: sha1(path) first byte even = fit,
 * odd = check (as scripts/quality/face-geometry.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import sharp from 'sharp';
import {
  ANALYZER_PARSING, detectFaces, type Face, type FaceParser, type FaceParsing, hairMask, type HumanLike, type Mask,
  type ModelRegistry, parseFace, type ParseOptions, partInputs, type PersonModel, type RasterImage
} from '../../engine/for-scripts.ts';

export type Half = 'fit' | 'check';
export const half = (rel: string): Half => (createHash('sha1').update(rel).digest()[0] & 1 ? 'check' : 'fit');

export interface PhotoData { rel: string; image: RasterImage; faces: Face[]; parsings: (FaceParsing | null)[]; hair: Mask; ms: { parse: number[]; hair: number } }

/** The face analyzer's parse options (ANALYZER_PARSING) or, with ATELIER_PARSE_INPUT, that input side for a comparison (its own cache). */
const parseInput = process.env.ATELIER_PARSE_INPUT ? Number(process.env.ATELIER_PARSE_INPUT) : undefined;
/** ATELIER_PARSE_INT8=1: the parser's int8 network (ParseOptions.int8) for a comparison (its own cache). */
const int8 = process.env.ATELIER_PARSE_INT8 === '1';
const PARSE: ParseOptions = { ...ANALYZER_PARSING, ...(parseInput ? { input: parseInput } : {}), ...(int8 ? { int8 } : {}) };
/** ATELIER_PARTS_CACHE: another cache folder (to compare two versions of the pipeline without overwriting the shared one). */
export const CACHE = process.env.ATELIER_PARTS_CACHE ?? `/tmp/face-parts/cache-${process.env.ATELIER_PARTS_FULL_RES ? 'full' : 'work'}-${PARSE.input ?? 512}${PARSE.int8 ? 'q' : ''}${PARSE.classes ? '-cls' : ''}`;

/** The photos: every portrait and every UTKFace chip (FER crops are 48 px grey: no colour to read). */
export function photoList(testdata: string): string[] {
  const list = (dir: string) => readdirSync(path.join(testdata, dir)).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort().map((f) => `${dir}/${f}`);
  return [...list('portraits'), ...list('faces_age_gender')];
}

export async function loadImage(testdata: string, rel: string): Promise<RasterImage> {
  const { data, info } = await sharp(path.join(testdata, rel)).rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 };
}

export async function photoData(models: ModelRegistry, testdata: string, rel: string, fresh = false): Promise<PhotoData> {
  const file = path.join(CACHE, rel.replace(/[^\w.-]/g, '_') + '.v8');
  const image = await loadImage(testdata, rel);
  if (!fresh && existsSync(file)) {
    const c = deserialize(readFileSync(file)) as Omit<PhotoData, 'image'> & { work?: RasterImage };
    return { ...c, image: c.work ?? image };
  }
  const human = await models.get<HumanLike>('human');
  const faces = (await detectFaces(human, image)).filter((f) => f.mesh);
  if (process.env.ATELIER_PARTS_FULL_RES) {
    // The earlier way, for comparison: each face parsed alone and the hair mask at the photo's full resolution.
    const parser = await models.get<FaceParser>('bisenet-face-parsing');
    const parsings: (FaceParsing | null)[] = [];
    const parse: number[] = [];
    for (const face of faces) {
      const t0 = performance.now();
      parsings.push(await parseFace(parser, image, face, PARSE));
      parse.push(performance.now() - t0);
    }
    const t1 = performance.now();
    const hair = faces.length ? await hairMask(models, image, faces) : { data: new Uint8Array(image.width * image.height), width: image.width, height: image.height };
    const d = { rel, faces, parsings, hair, ms: { parse, hair: performance.now() - t1 } };
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(file, serialize(d));
    return { ...d, image };
  }
  // As the face analyzer does it (part-inputs.ts): a working copy no finer than the parser's view, faces parsed in one batch.
  const t0 = performance.now();
  const x = faces.length ? await partInputs(models, image, faces, PARSE, { rvmSide: Number(process.env.ATELIER_RVM_SIDE) || undefined, personModel: (process.env.ATELIER_HAIR_MATTE as PersonModel | undefined) || undefined }) : { image, faces, parsings: [], hair: { data: new Uint8Array(image.width * image.height), width: image.width, height: image.height } };
  const ms = performance.now() - t0;
  const d = { rel, faces: x.faces, parsings: x.parsings, hair: x.hair!, ms: { parse: x.faces.map(() => ms / Math.max(1, x.faces.length)), hair: 0 }, work: x.image };
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(file, serialize(d));
  return { ...d, image: x.image };
}
