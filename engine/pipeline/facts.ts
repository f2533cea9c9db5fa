/**
 * Facts about one job's main image that several steps (and several effects' steps) need: the faces, each
 * face's regions and parsing, the person matte, the hair mask. Each is computed on first use and kept for the rest of
 * the job only, so no step recomputes one and nothing outlives the job (no module-level caches).
 */
import { type Mask } from '../image/mask.ts';
import type { RasterImage } from '../image/raster.ts';
import { timeModel } from '../vision/models/clock.ts';
import { detectFaces, type DetectOptions, type Face, faceApiDetector } from '../vision/faces/detect.ts';
import type { FaceApiNets } from '../vision/models/face-api.ts';
import { hairMask, personMatte } from '../vision/matting/person.ts';
import type { ModelRegistry } from '../vision/models/registry.ts';
import { faceRegions, REGION_NAMES, type RegionName } from '../vision/regions/face-regions.ts';
import { parseFace, type FaceParser, type FaceParsing, type ParseOptions } from '../vision/parsing/face-parsing.ts';
import { occlusionMask, OCCLUSION_PARSING } from '../vision/regions/occlusion.ts';
import { handPlane, handsAtFace } from '../vision/regions/hands.ts';
import { objectMask } from '../vision/regions/objects.ts';
import type { HumanLike } from '../vision/models/human.ts';
import { toMask } from '../image/mask.ts';

export interface JobFacts {
  /** The faces, largest first; memoised per set of options. */
  faces(opts?: DetectOptions): Promise<Face[]>;
  /**
   * One face's regions as soft masks at full resolution, snapped to the photo's edges: those named (all by
   * default), each drawn once per job however many steps ask for it.
   */
  regions(face: Face, names?: readonly RegionName[]): Partial<Record<RegionName, Mask>>;
  /**
   * One face's parsing (BiSeNetV2, 19 classes) over an upright crop around it, back in image pixels;
   * memoised per face and options (face-beauty parses smaller and fewer classes than face-analyzer).
   */
  parsing(face: Face, opts?: ParseOptions): Promise<FaceParsing>;
  /**
   * What covers one face (hands, phones, microphones, hair over its eyes or lips...), 255 = in front of the
   * face (vision/regions/occlusion.ts); memoised per face. Needs the face parser among the effect's models.
   */
  occlusion(face: Face): Promise<Mask>;
  /**
   * The hands held in front of one face (vision/regions/hands.ts: a hand landmark model on a few crops at the
   * mouth and chin), 255 = hand; memoised per face; an all-zero mask where none is found or the face has no mesh.
   */
  hands(face: Face): Promise<Mask>;
  /**
   * The things held in front of one face that are not hands (vision/regions/objects.ts: a phone or a cup the
   * object detector finds near the mouth, a grey microphone over the lips), 255 = object; memoised per face; an
   * all-zero mask where none is found or the face has no mesh.
   */
  objects(face: Face): Promise<Mask>;
  /** Every person, 255 = person. */
  personMatte(): Promise<Mask>;
  /** The hair of the people whose faces are given (by default the faces found with default options). */
  hairMask(faces?: Face[]): Promise<Mask>;
}

export function jobFacts(image: RasterImage, models: ModelRegistry): JobFacts {
  const faces = new Map<string, Promise<Face[]>>();
  const regions = new WeakMap<Face, Partial<Record<RegionName, Mask>>>();
  const hair = new Map<string, Promise<Mask>>();
  const parsings = new WeakMap<Face, Map<string, Promise<FaceParsing>>>();
  const occlusions = new WeakMap<Face, Promise<Mask>>();
  const hands = new WeakMap<Face, Promise<Mask>>();
  const objects = new WeakMap<Face, Promise<Mask>>();
  let matte: Promise<Mask> | undefined;
  const once = <K, V>(map: Map<K, V>, key: K, make: () => V): V => {
    let v = map.get(key);
    if (v === undefined) { v = make(); map.set(key, v); }
    return v;
  };

  const facts: JobFacts = {
    faces: (opts = {}) => once(faces, JSON.stringify(opts), async () => {
      const h = await models.get('human');
      // face-api after Human: its tensors need the wasm backend Human sets.
      const second = opts.secondDetector === false ? undefined : faceApiDetector(await models.get<FaceApiNets>('face-api'));
      return timeModel(() => detectFaces(h, image, opts, second));
    }),
    regions: (face, names = REGION_NAMES) => {
      let r = regions.get(face);
      if (!r) { r = {}; regions.set(face, r); }
      const missing = names.filter((n) => !(n in r));
      if (missing.length) Object.assign(r, faceRegions(face, image, image, missing));
      return r;
    },
    parsing: (face, opts = {}) => {
      let byOpts = parsings.get(face);
      if (!byOpts) { byOpts = new Map(); parsings.set(face, byOpts); }
      return once(byOpts, JSON.stringify(opts), () => models.get<FaceParser>('bisenet-face-parsing').then((parser) => parseFace(parser, image, face, opts)));
    },
    occlusion: (face) => {
      let m = occlusions.get(face);
      if (!m) { m = facts.parsing(face, OCCLUSION_PARSING).then((parsing) => occlusionMask(face, parsing, image)); occlusions.set(face, m); }
      return m;
    },
    hands: (face) => {
      let m = hands.get(face);
      if (!m) {
        m = models.get<HumanLike>('human').then(async (h) => {
          const win = { x0: 0, y0: 0, w: image.width, h: image.height };
          const mesh = face.mesh, found = await handsAtFace(h, image, face);
          const fw = mesh ? Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]) : 0;
          return toMask(handPlane(found, win, fw).plane, win, image);
        });
        hands.set(face, m);
      }
      return m;
    },
    objects: (face) => {
      let m = objects.get(face);
      if (!m) { m = models.get<HumanLike>('human').then((h) => objectMask(h, image, face)); objects.set(face, m); }
      return m;
    },
    personMatte: () => (matte ??= personMatte(models, image)),
    hairMask: async (given) => {
      const list = given ?? await facts.faces();
      const key = list.map((f) => `${f.box.x0},${f.box.y0},${f.box.w},${f.box.h}`).join(';');
      return once(hair, key, async () => hairMask(models, image, list, await facts.personMatte()));
    },
  };
  return facts;
}
