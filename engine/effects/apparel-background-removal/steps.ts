/**
 * Steps of apparel background removal: the subject's matte (ISNet), the person's face, keypoints and
 * bags, a garment parse at work size, then one alpha per requested output at input size, each in the
 * requested form.
 */
import sharp from 'sharp';
import type endpoint from '../../../contract/endpoints/apparel-background-removal.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { named, withState, type Ctx, type Kit, type Step } from '../../pipeline/effect.ts';
import { predict, type IsnetModel } from '../../vision/models/isnet.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { bodyPoints, detectObjects, type BodyPoint, type DetectedObject } from './garments/human-run.ts';
import { namedByModel, parseGarments, type GarmentParse } from './garments/parse.ts';
import { parseByRules, type ParseInput } from './garments/rules.ts';
import { photoScene, type PhotoScene } from './garments/scene.ts';
import { parseHeads, type HeadParsing } from './garments/head-parsing.ts';
import type { FaceParser } from '../../vision/parsing/face-parsing.ts';
import { BAG_LABELS } from './garments/bags.ts';
import { BAGS } from './garments/tuning.ts';
import { multiplyByInputAlpha, withAlpha } from '../../image/alpha.ts';
import { overWhite } from '../../image/composite.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { EncodedImage } from '../../image/raster.ts';
import { decontaminator } from '../../image/foreground.ts';
import { classLabel, clothingLabels, selectLabels, type GarmentClass } from './garment-classes.ts';
import { FOREGROUND_RADII, MESH_FACES, WORK_SIDE } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Alpha {
  /** Subject alpha at input size. */
  alpha: Uint8Array;
}
export interface Person {
  faces: Face[]; points: BodyPoint[]; objects: DetectedObject[];
  /** Hair of the people (vision core), 0..255 at input size; none without a face. */
  hair?: Uint8Array;
  /** The photo at work size and its superpixels (what the parse reads of the photo alone), when made ahead. */
  photo?: WorkPhoto;
}
export interface WorkPhoto { rgb: Uint8Array; scene: PhotoScene }
export interface Heads {
  /** The face parser's hat, hair, cloth, skin and background around the largest faces, at work size; none without a face. */
  heads?: HeadParsing;
}
/** What the garment parse reads (and scripts/apparel-cache.ts keeps per photo). */
export type ParseState = Alpha & Person & Heads;
export interface Parsed { parse: GarmentParse }
export interface Masks {
  /** Output name (`result`, `class:<name>`) → alpha at input size. */
  masks: Record<string, Uint8Array>;
}

const raw = (data: Uint8Array, width: number, height: number, channels: number) => sharp(data, { raw: { width, height, channels: channels as 1 | 3 | 4 } });
const grey = async (s: ReturnType<typeof sharp>) => { const b = await s.extractChannel(0).raw().toBuffer(); return new Uint8Array(b.buffer, b.byteOffset, b.length); };

export const predictMatte = (modelId: string): Step<P, object, Alpha> => named('predictMatte', async (c: Ctx<P>, kit: Kit) => {
  const matte = (await predict(await kit.models.get<IsnetModel>(modelId), c.image)).matte;
  const { width, height, channels, data } = c.image;
  const alpha = await grey(raw(matte.data, matte.width, matte.height, 1).resize(width, height, { fit: 'fill', kernel: 'linear' }));
  if (channels === 4) multiplyByInputAlpha(alpha, data);
  return { alpha };
});

export const findPerson: Step<P, object, Person> = async (c, kit) => {
  const human = await kit.models.get('human');
  // Blazeface alone: the parse needs the main person's face, and the second detector's extra faces on
  // full-body photos are bystanders (docs/experiments/apparel-background-removal.md#the-first-request-and-the-second-face-detector-issue-32).
  const faces = await c.facts.faces({ meshFaces: MESH_FACES, secondDetector: false });
  // The person matte under the hair mask (RVM, in the model host) asked for now, so that it runs while the
  // keypoints and objects run here instead of after them.
  if (faces.length) c.facts.personMatte().catch(() => {});
  const points = await bodyPoints(human, c.image);
  // Faint bag boxes are kept for the parse to judge where they lie (bags.ts); other objects as before.
  const objects = (await detectObjects(human, c.image, BAGS.hangingScore)).filter((o) => o.score >= BAGS.minScore || BAG_LABELS.has(o.label));
  const hairMask = faces.length ? c.facts.hairMask(faces) : undefined;
  // The photo's superpixels, the parse's largest part that reads no model output, made here while the model
  // host runs ISNet and then RVM (the hair mask waits for both): this thread would otherwise wait idle.
  const photo = await workPhoto(c.image);
  const hair = hairMask ? (await hairMask).data : undefined;
  return { faces, points, objects, hair, photo };
};

/**
 * The matte and the person at once: ISNet runs in the model host while Human's models (and, on a worker's
 * first job, their loading) run in this thread. Neither reads what the other writes.
 */
export const matteAndPerson = (modelId: string): Step<P, object, Alpha & Person> => named('matteAndPerson', async (c: Ctx<P>, kit: Kit) => {
  const [alpha, person] = await Promise.all([predictMatte(modelId)(c, kit), findPerson(c, kit)]);
  return { ...alpha, ...person };
});

/** The parse's size for an image: its longest side WORK_SIDE at most, and the scale to it. */
export function workSize(W: number, H: number) {
  const k = Math.min(1, WORK_SIDE / Math.max(W, H));
  return { k, width: Math.max(1, Math.round(W * k)), height: Math.max(1, Math.round(H * k)) };
}

/** The face parser on the largest faces (head-parsing.ts): hats on heads are what it learnt to see. */
export const parseFacesAround: Step<P, Person, Heads> = async (c, kit) => {
  const { faces } = c.state, { width, height } = workSize(c.image.width, c.image.height);
  return { heads: faces.length ? await parseHeads(await kit.models.get<FaceParser>('bisenet-face-parsing'), c.image, faces, width, height) : undefined };
};

/** The photo at work size (RGB, over white where it has alpha). */
async function workRgb(image: Ctx<P>['image']): Promise<Uint8Array> {
  const { width: W, height: H, channels, data } = image;
  const { width, height } = workSize(W, H);
  let s = raw(data, W, H, channels);
  if (channels === 4) s = s.flatten({ background: '#ffffff' });
  // Lanczos, not linear: a sharper small image gives superpixels that follow garment edges (measured).
  return s.resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).removeAlpha().raw().toBuffer();
}

/** The photo at work size and its superpixels. */
export async function workPhoto(image: Ctx<P>['image']): Promise<WorkPhoto> {
  const rgb = await workRgb(image), { width, height } = workSize(image.width, image.height);
  return { rgb, scene: photoScene(rgb, 3, width, height) };
}

/** The photo and the model outputs at work size, as the garment parse takes them. */
export async function parseInput(c: Ctx<P, ParseState>): Promise<ParseInput> {
  const v = c.state;
  const { width: W, height: H } = c.image;
  const { k, width, height } = workSize(W, H);
  const rgb = v.photo?.rgb ?? await workRgb(c.image);
  const matte = await grey(raw(v.alpha, W, H, 1).resize(width, height, { fit: 'fill', kernel: 'linear' }));
  const hair = v.hair ? await grey(raw(v.hair, W, H, 1).resize(width, height, { fit: 'fill', kernel: 'linear' })) : undefined;
  const box = (b: Face['box']) => ({ x0: b.x0 * k, y0: b.y0 * k, w: b.w * k, h: b.h * k });
  return {
    rgb, channels: 3, width, height, matte,
    faces: v.faces.map((f) => ({ ...f, box: box(f.box), mesh: f.mesh?.map(([x, y, z]) => [x * k, y * k, z * k] as [number, number, number]) })),
    points: v.points.map((p) => ({ ...p, x: p.x * k, y: p.y * k })),
    objects: v.objects.map((o) => ({ ...o, box: box(o.box) })),
    hair,
    heads: v.heads,
    photo: v.photo?.scene,
  };
}

export const parse: Step<P, ParseState, Parsed> = async (c) => ({ parse: parseGarments(await parseInput(c)) });

/**
 * parseFacesAround then parse, with the rules' part of the parse (which does not read the heads) run while
 * the face parser's network runs in the model host: the same parse, the model's time under the rules'.
 */
export const parseAlongHeads: Step<P, Alpha & Person, Heads & Parsed> = named('parseAlongHeads', async (c: Ctx<P, Alpha & Person>, kit: Kit) => {
  const heads = Promise.resolve(parseFacesAround(c, kit));
  heads.catch(() => {});
  const input = await parseInput(withState(c, { heads: undefined }));
  const rules = parseByRules(input);
  const h = await heads;
  return { ...h, parse: namedByModel(rules, { ...input, heads: h.heads }) };
});

/**
 * The work-size label selection upscaled to input size (soft seams between garments) times the subject
 * alpha; where the parse labelled what the matte left out (a bag), the selection alone.
 */
async function alphaFor(c: Ctx<P, Alpha & Parsed>, labels: readonly number[]): Promise<Uint8Array> {
  const v = c.state;
  const { labels: map, width, height, offMatte } = v.parse;
  const sel = selectLabels(map, labels);
  // A class the photo does not show: its alpha is zero everywhere, without the upscale.
  if (!sel.includes(1)) return new Uint8Array(c.image.width * c.image.height);
  const up = async (m: Uint8Array) => {
    for (let i = 0; i < m.length; i++) m[i] *= 255;
    return grey(raw(m, width, height, 1).resize(c.image.width, c.image.height, { fit: 'fill', kernel: 'linear' }));
  };
  let off: Uint8Array | null = null;
  if (offMatte) {
    const o = new Uint8Array(sel.length);
    for (let i = 0; i < o.length; i++) o[i] = sel[i] & offMatte[i];
    if (o.includes(1)) off = await up(o);
    if (off && c.image.channels === 4) multiplyByInputAlpha(off, c.image.data);
  }
  const out = await up(sel);
  const alpha = v.alpha;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] * alpha[i] + 127) / 255;
  if (off) for (let i = 0; i < out.length; i++) out[i] = Math.max(out[i], off[i]);
  return out;
}

export const buildMasks: Step<P, Alpha & Parsed, Masks> = async (c) => {
  const requested = (c.params.cloth_class ?? ['tops']) as GarmentClass[];
  const union = c.params.out_mode === 1 ? requested.map((k) => classLabel[k]) : clothingLabels;
  const masks: Masks['masks'] = { result: await alphaFor(c, union) };
  for (const k of requested) masks[`class:${k}`] = await alphaFor(c, [classLabel[k]]);
  return { masks };
};

/** Each output encoded while the next one's colours are worked out (sharp encodes off this thread). */
export const encodeOutputs: Step<P, Masks> = async (c) => {
  const { width, height, channels, data } = c.image;
  // The photo's colours with the soft edge of each alpha freed of what lay behind (engine/image/foreground.ts),
  // the photo's part of that made once for every output.
  const decontaminated = decontaminator(data, width, height, channels, FOREGROUND_RADII);
  const encode = (alpha: Uint8Array) => {
    switch (c.params.return_form) {
      case 'mask':
        return encodePngFast({ data: alpha, width, height, channels: 1 });
      case 'whiteBK':
        return encodePngFast({ data: overWhite(decontaminated(alpha), channels, alpha), width, height, channels: 3 });
      default:
        return encodePngFast({ data: withAlpha(decontaminated(alpha), channels, alpha), width, height, channels: 4 });
    }
  };
  const masks = Object.entries(c.state.masks);
  const encodings: Promise<EncodedImage>[] = [];
  for (const [i, [, alpha]] of masks.entries()) {
    // An output whose alpha an earlier one has (classes the photo does not show, the union of a single
    // class) is that output's image: encoded once, each output given its own copy.
    const same = masks.findIndex(([, other]) => sameBytes(other, alpha));
    encodings.push(same < i ? encodings[same].then((e) => ({ ...e, data: Buffer.from(e.data) })) : encode(alpha));
  }
  const encoded = await Promise.all(encodings);
  for (const [i, [name]] of masks.entries()) c.output.images[name] = encoded[i];
};

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
