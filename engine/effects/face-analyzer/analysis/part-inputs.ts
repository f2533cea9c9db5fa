/**
 * What the part attributes (part-attributes.ts) read for the faces of one photo: each face's parsing and the
 * photo's hair mask, on a working copy of the photo no finer than the parser sees the largest face. The
 * parser's masks carry no detail finer than its input, and the measures are shares and medians over the
 * face, so the full resolution of a large face only cost time: on a 12 MP phone photo the full-size masks,
 * regions and colours of one face were several seconds. The faces are given in the working copy's pixels.
 */
import sharp from 'sharp';
import type { Mask } from '../../../image/mask.ts';
import type { RasterImage } from '../../../image/raster.ts';
import { hairFromMatte } from '../../../vision/matting/hair.ts';
import { personMatteWith, type PersonModel } from '../../../vision/matting/person.ts';
import { workGuide } from '../../../vision/matting/work-guide.ts';
import type { ModelRegistry } from '../../../vision/models/registry.ts';
import { parseFaceAt, parsingRoi, parsingWindow, type FaceParser, type ParseOptions, type ParsingSample, INPUT } from '../../../vision/parsing/face-parsing.ts';
import type { Face } from '../../../vision/faces/detect.ts';
import { HAIR_PERSON_MODEL, HAIR_RVM_SIDE } from '../tuning.ts';
import { partsLattice } from './part-sampling.ts';

export interface PartInputs {
  /** The working copy of the photo (the photo itself when it is small enough). */
  image: RasterImage;
  /** The faces in the working copy's pixels, in the order given. */
  faces: Face[];
  /**
   * Each meshed face's parsing at the points the part measures read (partsLattice of its window: on a large
   * face every few pixels), null without mesh (the parts are not measured then).
   */
  parsings: (ParsingSample | null)[];
  /** The photo's hair mask, at most 512 px on its long side (not the working copy's size); absent when not asked for (only the hair attributes read it). */
  hair?: Mask;
  /** Working copy pixels per photo pixel. */
  scale: number;
}

/** A face in an image scaled by k. */
export function scaleFace(face: Face, k: number): Face {
  if (k === 1) return face;
  const b = face.box;
  return {
    ...face,
    box: { x0: b.x0 * k, y0: b.y0 * k, w: b.w * k, h: b.h * k },
    ...(face.mesh ? { mesh: face.mesh.map(([x, y, z]) => [x * k, y * k, z * k] as [number, number, number]) } : {}),
  };
}

/** The scale (at most 1) at which the largest meshed face's parsing crop is `input` pixels across. */
export function workScale(faces: readonly Face[], parse: ParseOptions): number {
  const sizes = faces.filter((f) => f.mesh).map((f) => parsingRoi(f, parse.frame).size);
  return sizes.length ? Math.min(1, (parse.input ?? INPUT) / Math.max(...sizes)) : 1;
}

/**
 * opts.hair: false when no hair attribute is asked for (no matte then); opts.rvmSide, opts.personModel: RVM's
 * input side and the person matte model for a comparison (HAIR_RVM_SIDE, HAIR_PERSON_MODEL).
 */
export async function partInputs(models: ModelRegistry, image: RasterImage, faces: readonly Face[], parse: ParseOptions, opts: { hair?: boolean; rvmSide?: number; personModel?: PersonModel } = {}): Promise<PartInputs> {
  const k = workScale(faces, parse);
  let work = image;
  if (k < 1) {
    const width = Math.max(1, Math.round(image.width * k)), height = Math.max(1, Math.round(image.height * k));
    const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
      .resize(width, height, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
    work = { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
  }
  // The image was resized to whole pixels: its own ratio, per axis, is what maps the faces.
  const kx = work.width / image.width;
  const scaled = faces.map((f) => scaleFace(f, kx));
  // Every face's parse and the hair mask are started together: where the networks run in the model host (the
  // engine), one face's crop and warp and the hair mask's cut run in this thread while another network runs
  // there. The values are those of running them one after another.
  // The classes only at the points the measures read (on a large face every few pixels), not over the whole window.
  const parser = await models.get<FaceParser>('bisenet-face-parsing');
  const parsings = Promise.all(scaled.map((f) => (f.mesh ? parseFaceAt(parser, work, f, partsLattice(parsingWindow(f, work, parse.frame)), parse) : null)));
  // Both at the hair mask's work size (at most 512 px long): the measures sample it on a grid of 0.02 face widths.
  // The matte and the hair mask are filtered with the same 512 px copy of the photo: made once.
  const hairMask = async () => {
    const guide = await workGuide(work);
    const matte = await personMatteWith(models, work, opts.personModel ?? HAIR_PERSON_MODEL, { rvmSide: opts.rvmSide ?? HAIR_RVM_SIDE, small: true, guide });
    return hairFromMatte(work, matte, scaled, { small: true, guide });
  };
  const [parsed, hair] = await Promise.all([parsings, opts.hair === false ? undefined : hairMask()]);
  return { image: work, faces: scaled, parsings: parsed, ...(hair ? { hair } : {}), scale: kx };
}
