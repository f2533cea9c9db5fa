/**
 * Steps of beard styling: the largest face → its own beard removed (looks/beard/mask.ts's mask, exemplar
 * inpainting), then either a preset (its parts on the mesh as the coverage of a real beard's texture from the
 * library, exemplar.ts and render.ts, in the person's hair colour and the photo's light) or the template photo's beard carried over through both
 * meshes and blended in the gradient domain → lossless PNG. The preset wins when both sources are given
 * (docs/interface.md#beard-styling); the contract's oneOf group already refuses a request with neither.
 * Parameters: tuning.ts.
 */
import type endpoint from '../../../contract/endpoints/ai-beard-styling.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import { guidedFilter } from '../../image/guided-filter.ts';
import { lumaPlane } from '../../image/luma.ts';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { readWindow, writeWindow } from '../../image/window.ts';
import { CodedError } from '../../../contract/errors.ts';
import type { Step } from '../../pipeline/effect.ts';
import { jobFacts } from '../../pipeline/facts.ts';
import { eachFace, keepOccluders, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { poseFromMesh } from '../../vision/faces/pose.ts';
import type { FaceParsing, ParseOptions } from '../../vision/parsing/face-parsing.ts';
import type { RegionName } from '../../vision/regions/face-regions.ts';
import { BEARD_PARSING, BEARD_PARSING_CLASSES, BEARD_REGIONS, removeFaceBeard } from '../../looks/beard/mask.ts';
import { fillPolygon, type Pt } from '../../image/polygon.ts';
import { parsingPlane } from '../../vision/regions/skin-mask.ts';
import { atlasPoint } from '../../vision/regions/uv-map.ts';
import { faceTone, lightPlane, type OwnBeard } from './colour.ts';
import { presetByName, type BeardPart, type BeardPreset } from './presets.ts';
import { faceShape, turned, type FaceShape } from './shape.ts';
import { seededRandom } from '../../image/random.ts';
import { gauss } from '../../image/gauss.ts';
import { exemplarOf, loadLibrary } from './exemplar.ts';
import { renderExemplar } from './render.ts';
import { addGrain, photoLook, soften } from './grain.ts';
import { templateBeard, transferBeard, type TemplateBeard } from './template.ts';
import { BACK_FROM, BACK_TO, CHIN_MIDDLE, DENSE_BODY, DRAWN_BLUR, EDGE_FULL, EDGE_THIN, FAR_SIDE, FAR_U, FAR_V, LIGHT_SIGMA, LIP_GAIN, MOUSTACHE_GAIN, OCCLUDE_FROM, OCCLUDE_TO, SNAP_EPS, SNAP_RADIUS, STUBBLE_COVER, STUBBLE_LENGTH, TEMPLATE_PARSE_INPUT } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Source {
  /** The beard to give: a preset's name, or the template's beard, found once for all faces. */
  beard: string | TemplateBeard;
}
export interface Styled { result: RasterImage }

/**
 * One parsing per face for both the beard removal's mask (its input size and classes, looks/beard/mask.ts) and the
 * hair colour (brows and scalp hair).
 */
export const PARSE: ParseOptions = { input: BEARD_PARSING.input, classes: [...BEARD_PARSING_CLASSES, 'rightBrow', 'leftBrow'] };

/** The largest face only: the interface names no face, and a group photo's other faces keep their own look. */
export const findFaces = selectFaces<P>(() => ({ count: 1 }));

/** The preset, else the template's face and beard. */
export const readTemplate: Step<P, object, Source> = async (c, kit) => {
  if (c.params.beard) { await loadLibrary(); return { beard: c.params.beard }; }
  const template = c.images.image_template;
  if (!template) throw new CodedError('MISSING_PARAMETERS', 'one of beard or image_template is required');
  const facts = jobFacts(template, kit.models);
  const face = (await facts.faces()).find((f) => f.mesh);
  if (!face) throw new CodedError('ERROR_NO_FACE_IN_FILE', 'no face was found in image_template');
  const parsing = await facts.parsing(face, { input: TEMPLATE_PARSE_INPUT, classes: ['skin', 'neck', 'hair', 'rightBrow', 'leftBrow', 'upperLip', 'lowerLip', 'mouth', 'nose', 'background', 'cloth'] });
  const beard = templateBeard(template, face, parsing);
  if (!beard) throw new CodedError('ERROR_INVALID_PARAMETER', 'image_template: no beard or moustache was found on the face in the template photo');
  return { beard };
};

export const style: Step<P, PortraitState & Source, Styled> = async (c, kit) => {
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  await eachFace(c.state.faces, kit, async (face, i) => {
    if (!face.mesh) return;
    const parsing = await c.facts.parsing(face, PARSE);
    styleFace(c.image, result, face, parsing, c.facts.regions(face, BEARD_REGIONS), c.state.beard, i);
  });
  // A hand, a phone or a microphone held at the chin stays in front of the beard drawn behind it.
  await keepOccluders(c, result, c.state.faces, 'held');
  return { result };
};

/**
 * One face's edit into `result`: its own beard removed first (found on `image`, the photo as sent:
 * looks/beard/mask.ts), so a moustache or a goatee leaves bare skin around it, and kept under the preset's dense
 * parts, then the preset drawn or the template's beard carried over, reading its light from the shaved
 * face. `regions`: BEARD_REGIONS of the face.
 */
export function styleFace(image: RasterImage, result: RasterImage, face: Face, parsing: FaceParsing, regions: Partial<Record<RegionName, Mask>>, beard: string | TemplateBeard, index: number): void {
  const shaved = removeFaceBeard(result, image, face, parsing, regions);
  const source = shaved ? { ...result, data: Buffer.from(result.data) } : image;
  if (typeof beard === 'string') {
    // The person's own beard stays under the style's dense parts: only where the style needs bare skin
    // (outside it, and under stubble, which is short hair over skin) is it removed, so the laid texture lies
    // over real hair rather than over a fill.
    if (shaved) {
      const preset = presetByName(beard) ?? fail(beard);
      keepUnderStyle(image, result, faceShape(preset, face.mesh!, image), preset.parts.map((p) => p.body >= DENSE_BODY));
    }
    drawPreset(source, result, face, parsing, beard, index, shaved ? { ...shaved.mask, photo: image } : null);
  } else transferBeard(source, result, face, parsing, beard);
}

const fail = (name: string): never => { throw new CodedError('ERROR_INVALID_PARAMETER', `beard: unknown preset ${name}`); };

/** `image`'s own pixels back into `result` in proportion to the coverage of the `dense` parts (their soft outline). */
export function keepUnderStyle(image: RasterImage, result: RasterImage, shape: Pick<FaceShape, 'win' | 'coverage'>, dense: readonly boolean[]): void {
  const { win, coverage } = shape, ch = result.channels;
  for (let y = 0; y < win.h; y++) {
    for (let x = 0; x < win.w; x++) {
      let t = 0;
      coverage.forEach((c, k) => { if (dense[k] && c[y * win.w + x] > t) t = c[y * win.w + x]; });
      if (t <= 0) continue;
      const o = ((win.y0 + y) * result.width + win.x0 + x) * ch;
      for (let c = 0; c < 3; c++) result.data[o + c] = Math.round(result.data[o + c] + (image.data[o + c] - result.data[o + c]) * t);
    }
  }
}

/**
 * One face's beard from a preset into `result` (reading light and colour from `image`; its colour from the
 * face's own beard too where `own` gives one): the preset's parts (shape.ts) as the coverage of a real
 * beard's texture (exemplar.ts, the library loaded by loadLibrary), carried through the face mesh, in the
 * person's hair colour and the photo's light, blur and grain (render.ts).
 */
export function drawPreset(image: RasterImage, result: RasterImage, face: Face, parsing: FaceParsing, name: string, index: number, own?: OwnBeard | null): void {
  const preset = presetByName(name);
  if (!preset) throw new CodedError('ERROR_INVALID_PARAMETER', `beard: unknown preset ${name}`);
  const shape = faceShape(preset, face.mesh!, image);
  const tone = faceTone(image, parsing, own);
  const skin = parsingPlane(parsing, ['skin', 'neck'], shape.win);
  const light = lightPlane(image, shape.win, tone.skinLuma, LIGHT_SIGMA * shape.faceWidth, skin);
  const ch = result.channels;
  const px = readWindow(result, shape.win);
  const n = shape.win.w * shape.win.h;
  const out = new Float32Array(n * 3);
  for (let k = 0; k < n; k++) { out[k * 3] = px[k * ch]; out[k * 3 + 1] = px[k * ch + 1]; out[k * 3 + 2] = px[k * ch + 2]; }
  // A moustache stays on the person: on a turned face its far side crosses the silhouette into the
  // background beyond the lip, which then keeps its own pixels. A beard grows only on the person on a turned
  // face's far side (farSide): there the mesh's own outline runs past a laughing or near-profile face's
  // silhouette into the backdrop. Round the chin and on the near side a beard stands out past the jaw as
  // real beards do. A part away from the chin (a mutton chop) lies on the far cheek, hidden behind it on a
  // turned face: cut by the mesh's u too; a part over the chin by the nose-chin line alone.
  const far = farSide(face, { win: shape.win, faceWidth: shape.faceWidth });
  const farCheek = far && preset.parts.some((p) => !overChin(p)) ? farSide(face, shape) : null;
  const back = preset.parts.some((p) => MOUSTACHE_FLOWS.has(p.flow)) || far ? silhouette(parsingPlane(parsing, ['background'], shape.win), px, shape.win.w, shape.win.h, ch, shape.faceWidth) : null;
  const backdrop = (i: number) => Math.min(1, Math.max(0, (back![i] - BACK_FROM) / (BACK_TO - BACK_FROM)));
  const cloak = occluder(parsing, shape, px, ch);
  const { w, h } = shape.win;
  const bare = out.slice();
  const look = photoLook(image, face.mesh!, parsing, shape.faceWidth);
  // The parts' union as one coverage (a stubble part's a share of it: short hair over skin), so the
  // texture is laid once and overlapping parts do not double its darkness.
  const cover = new Float32Array(n);
  // A beard thins toward its edge as real ones do (fewer hairs, skin between them), over EDGE_THIN face
  // widths inside its outline: its shape's coverage blurred that far, from EDGE_FULL of it on full density.
  // Not a moustache: thin, nearly all edge, it would fade whole.
  const body = new Float32Array(n);
  preset.parts.forEach((part, k) => { if (!MOUSTACHE_FLOWS.has(part.flow)) for (let i = 0; i < n; i++) body[i] = Math.max(body[i], shape.coverage[k][i]); });
  const inner = EDGE_THIN > 0 ? gauss(body, w, h, EDGE_THIN * shape.faceWidth) : null;
  preset.parts.forEach((part, k) => {
    const whole = MOUSTACHE_FLOWS.has(part.flow);
    const cut = overChin(part) ? far : farCheek;
    const share = part.length < STUBBLE_LENGTH ? STUBBLE_COVER : 1;
    // A moustache is thin, nearly all soft outline: its coverage raised so its middle is hair, not a tint.
    const gain = whole ? MOUSTACHE_GAIN : 1;
    for (let i = 0; i < n; i++) {
      let c = Math.min(1, shape.coverage[k][i] * gain) * share * (1 - cloak[i]);
      if (cut && !whole) c *= 1 - backdrop(i) * cut[i];
      if (back && whole) c *= 1 - backdrop(i);
      if (inner && !whole) c *= Math.min(1, inner[i] / EDGE_FULL);
      if (c > cover[i]) cover[i] = c;
    }
  });
  const ex = exemplarOf();
  const laid = renderExemplar(out, shape.field, ex, cover, { hair: tone.hair, grey: tone.grey, light, stubble: isStubble(preset) });
  // The texture as soft and as grainy as the photo at this face: resampled from an exemplar of `res` pixels
  // per face width, it carries a blur of its own of about half a pixel per magnification.
  const magnified = shape.faceWidth / ex.res;
  soften(out, bare, laid, w, h, Math.sqrt(Math.max(0, look.blur ** 2 - (0.5 * magnified) ** 2 + DRAWN_BLUR ** 2)));
  addGrain(out, laid, w, h, look.grain, seededRandom(hashSeed(`${name}:${index}:grain`)));
  // The lips and the open mouth stay the person's own: a smiling face's upper lip sits inside the
  // moustache's mesh outline, and hair over it costs the likeness most (docs/experiments/ai-beard-styling.md).
  // And so does a headscarf or hood over the face's sides.
  const lips = parsingPlane(parsing, LIP_CLASSES, shape.win);
  for (let k = 0; k < n; k++) {
    const keep = Math.max(cloak[k], Math.min(1, LIP_GAIN * lips[k]));
    if (keep > 0) for (let c = 0; c < 3; c++) out[k * 3 + c] += (px[k * ch + c] - out[k * 3 + c]) * keep;
    px[k * ch] = clamp8(out[k * 3]); px[k * ch + 1] = clamp8(out[k * 3 + 1]); px[k * ch + 2] = clamp8(out[k * 3 + 2]);
  }
  writeWindow(result, shape.win, px);
}

/** Whether a preset is stubble (every part's strands under STUBBLE_LENGTH): its texture is laid finer. */
export function isStubble(preset: BeardPreset): boolean {
  return Math.max(...preset.parts.map((p) => p.length)) < STUBBLE_LENGTH;
}

const LIP_CLASSES = ['upperLip', 'lowerLip', 'mouth'] as const;

/** Whether a part's outline holds the chin's middle (CHIN_MIDDLE): its atlas pixel half covered or more. */
function overChin(part: BeardPart): boolean {
  const [x, y] = atlasPoint(CHIN_MIDDLE[0], CHIN_MIDDLE[1]);
  return fillPolygon(part.outline.map(([u, v]) => atlasPoint(u, v) as Pt), { x0: Math.floor(x), y0: Math.floor(y), w: 1, h: 1 })[0] >= 0.5;
}

/**
 * How much a hat covers each window pixel, 0..1: the parser calls a headscarf or a hood wrapping the cheeks
 * and jaw hat, and a beard drawn over it (its mesh outline runs under the scarf) floated on the cloth. Not
 * the parser's cloth: beside a lowered or tilted head's jaw that is the shirt or jacket a beard lies over
 * (the scarf is hat too wherever it meets the beard). Its edge snapped to the photo's as silhouette() does.
 */
function occluder(parsing: FaceParsing, shape: FaceShape, px: Uint8Array, ch: number): Float32Array {
  const { w, h } = shape.win;
  const hat = parsingPlane(parsing, ['hat'], shape.win);
  if (!hat.some((p) => p > OCCLUDE_FROM)) return new Float32Array(w * h);
  const q = silhouette(hat, px, w, h, ch, shape.faceWidth);
  for (let i = 0; i < q.length; i++) q[i] = Math.min(1, Math.max(0, (q[i] - OCCLUDE_FROM) / (OCCLUDE_TO - OCCLUDE_FROM)));
  return q;
}
/** The parts clipped to the person (by their flow): the moustaches. */
const MOUSTACHE_FLOWS: ReadonlySet<string> = new Set(['moustache', 'handlebar', 'imperial']);

/**
 * The parsing's background probability with its edge snapped to the photo's (a guided filter on the
 * luma): at 384 input its edge is blurred over about a twentieth of the face's width, which leaves a
 * turned face's lip and chin with only a weak background beside them.
 */
function silhouette(back: Float32Array, px: Uint8Array, w: number, h: number, ch: number, faceWidth: number): Float32Array {
  const q = guidedFilter(lumaPlane(px, w, h, ch), back, w, h, Math.max(2, Math.round(SNAP_RADIUS * faceWidth)), SNAP_EPS);
  for (let i = 0; i < q.length; i++) q[i] = q[i] < 0 ? 0 : q[i] > 1 ? 1 : q[i];
  return q;
}

/**
 * How much each window pixel lies on a turned face's far side (0..1), or null on a face turned less than
 * FAR_YAW[0] degrees: the yaw's ramp to FAR_YAW[1] times the distance past the nose-chin line (mesh 168 to
 * 152) toward the far side, ramped over FAR_SIDE face widths, so the chin and the near side are never clipped.
 * Given the shape's uv field, also the far cheek above the chin by canonical u (FAR_U, FAR_V).
 */
export function farSide(face: Face, shape: Pick<FaceShape, 'win' | 'faceWidth'> & { field?: FaceShape['field'] }): Float32Array | null {
  const mesh = face.mesh!, yaw = face.pose?.yaw ?? poseFromMesh(mesh).yaw;
  const turn = turned(yaw);
  if (turn <= 0) return null;
  const { win, faceWidth, field } = shape;
  const dx = mesh[152][0] - mesh[168][0], dy = mesh[152][1] - mesh[168][1], len = Math.hypot(dx, dy) || 1;
  // Across the face toward the subject's left (mesh 454's side), the far side when yaw > 0.
  const ax = (dy / len) * Math.sign(yaw), ay = (-dx / len) * Math.sign(yaw);
  const out = new Float32Array(win.w * win.h);
  for (let y = 0; y < win.h; y++) {
    for (let x = 0; x < win.w; x++) {
      const i = y * win.w + x;
      const d = ((win.x0 + x + 0.5 - mesh[152][0]) * ax + (win.y0 + y + 0.5 - mesh[152][1]) * ay) / faceWidth;
      let side = Math.min(1, Math.max(0, (d - FAR_SIDE[0]) / (FAR_SIDE[1] - FAR_SIDE[0])));
      // Above the chin the far cheek by the mesh's own u as well: a laughing near-profile's far mouth corner
      // lies on the nose-chin line, and a far part's edge there (a mutton chop's) was left as a wisp in the
      // backdrop beside the lip.
      const u = field?.u[i], v = field?.v[i];
      if (u !== undefined && v !== undefined && u === u && v === v) {
        const cheek = Math.min(1, Math.max(0, ((u - 0.5) * Math.sign(yaw) - FAR_U[0]) / (FAR_U[1] - FAR_U[0])));
        side = Math.max(side, cheek * (1 - Math.min(1, Math.max(0, (v - FAR_V[0]) / (FAR_V[1] - FAR_V[0])))));
      }
      out[i] = turn * side;
    }
  }
  return out;
}

/** A seed from a text (FNV-1a), so the same photo and preset answer the same pixels. */
export const hashSeed = (text: string) => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
};

const clamp8 = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

/** Lossless, so every pixel away from the beard comes back byte for byte. */
export const encode: Step<P, Styled> = async (c) => {
  c.output.images.result = await encodePngFast(c.state.result);
};
