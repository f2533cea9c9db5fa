/**
 * Shared by the skin-analysis scripts: the largest meshed face of a photo and its parsing, cached under
 * /tmp/skin-analysis/cache (detection and parsing are the slow part on 2 shared cores), and the labelled
 * ages of the shared faces.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import sharp from 'sharp';
import {
  detectFaces, type Face, type FaceParser, type FaceParsing, type HumanLike, type ModelRegistry, parseFace,
  PARSING_INPUT as INPUT, type RasterImage, SKIN_PARSING
} from '../../engine/for-scripts.ts';

export const CACHE = '/tmp/skin-analysis/cache';

export async function rasterOf(input: string | Buffer): Promise<RasterImage> {
  const { data, info } = await sharp(input).rotate().removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

export interface FaceData { face: Face; parsing: FaceParsing }

/**
 * The largest meshed face of an image and its parsing as the skin analysis asks for it (SKIN_PARSING;
 * null without a face); `key` names the cache entry (suffixed with the parsing's input side when not the default).
 */
export async function faceData(models: ModelRegistry, image: RasterImage, key?: string): Promise<FaceData | null> {
  const input = SKIN_PARSING.input ?? INPUT;
  const file = key ? path.join(CACHE, key.replace(/[^\w.-]/g, '_') + (input === INPUT ? '' : `@${input}`) + '.v8') : '';
  if (file && existsSync(file)) return deserialize(readFileSync(file)) as FaceData | null;
  const faces = (await detectFaces(await models.get<HumanLike>('human'), image, { meshFaces: 1 })).filter((f) => f.mesh);
  const d = faces.length ? { face: faces[0], parsing: await parseFace(await models.get<FaceParser>('bisenet-face-parsing'), image, faces[0], SKIN_PARSING) } : null;
  if (file) { mkdirSync(CACHE, { recursive: true }); writeFileSync(file, serialize(d)); }
  return d;
}

/** Age from a UTKFace file name (utkface_<age>_<gender>_<race>_...). */
export const utkAge = (rel: string) => Number(/utkface_(\d+)_/.exec(rel)?.[1]);
