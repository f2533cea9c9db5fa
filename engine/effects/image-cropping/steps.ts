/** Steps of smart cropping: the subject (faces and the salient object) → the window → crop and scale. */
import sharp from 'sharp';
import type endpoint from '../../../contract/endpoints/image-cropping.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { toXywh } from '../../../contract/rectangles.ts';
import { named, type Ctx, type Kit, type Step } from '../../pipeline/effect.ts';
import { isnetAt, type IsnetModel } from '../../vision/models/isnet.ts';
import { coverage, salientMatte } from '../../vision/matting/salient.ts';
import type { Face } from '../../vision/faces/detect.ts';
import { cropWindow, crownOf, massMatters, type Mass, type Subject, type SubjectFace, type Up } from './crop-window.ts';
import { JPEG_QUALITY, MATTE_FLOOR } from './tuning.ts';

export type P = Params<typeof endpoint>;

/** The subject as the finding steps leave it: every face, and the salient object's mass where it was looked for and found. */
export interface Found { faces: SubjectFace[]; mass?: Mass }

const UP: Record<Face['rotation'], Up> = { 0: 'top', 90: 'right', 180: 'bottom', 270: 'left' };

/**
 * Every face, with where its eyes are (the iris centres, when the mesh is there) and which way is up.
 * Photos turned on their side without EXIF are searched too: a sideways portrait still has a subject.
 */
export const findFaces: Step<P, object, Found> = async (c) => {
  const faces = await c.facts.faces({ searchRotations: true });
  return { faces: faces.map((f) => ({ box: f.box, up: UP[f.rotation], eye: f.mesh && irisMidpoint(f.mesh) })) };
};

// Mesh indices of the two iris centres (468 + 5 per iris, centre first).
const IRIS = [468, 473];
const irisMidpoint = (mesh: [number, number, number][]) =>
  mesh.length > IRIS[1] ? { x: (mesh[IRIS[0]][0] + mesh[IRIS[1]][0]) / 2, y: (mesh[IRIS[0]][1] + mesh[IRIS[1]][1]) / 2 } : undefined;

/**
 * The salient object's mass per image column and row: the subject when no face was found, and the figure
 * the faces belong to otherwise. With faces, only when it can move the window (massMatters): ISNet costs
 * far more than the face search. Without a target (scripts/quality/cropping.ts finds the subject once for
 * several), always. `side`: ISNet's input side (a multiple of 64; isnet-size.ts).
 */
export const findSalientObject = (modelId: string, side: number): Step<P, Found, Partial<Found>> => named('findSalientObject', async (c: Ctx<P, Found>, kit: Kit) => {
  const v = c.state;
  if (v.faces.length && c.params.width && c.params.height && !massMatters(c.image, target(c), v.faces)) return {};
  const { matte } = await salientMatte(await isnetAt(await kit.models.get<IsnetModel>(modelId), side), c.image);
  if (coverage(matte) <= 0) return {};
  return { mass: projections(matte, c.image), faces: v.faces.map((f) => ({ ...f, crown: crownOf(matte, c.image, f) })) };
});

/** Column and row sums of a matte that covers the whole image (at its own resolution), in image pixels. */
export function projections(m: Mask, image: { width: number; height: number }) {
  const columns = new Float64Array(image.width), rows = new Float64Array(image.height);
  const cx = Array.from({ length: m.width }, (_, j) => Math.min(image.width - 1, Math.floor(((j + 0.5) * image.width) / m.width)));
  for (let i = 0; i < m.height; i++) {
    const y = Math.min(image.height - 1, Math.floor(((i + 0.5) * image.height) / m.height));
    for (let j = 0; j < m.width; j++) {
      const a = m.data[i * m.width + j];
      if (a <= MATTE_FLOOR) continue;
      columns[cx[j]] += a;
      rows[y] += a;
    }
  }
  return { columns, rows };
}

// Both are required by the contract, so validation has already refused a request without them.
const target = (c: Ctx<P>) => ({ width: c.params.width, height: c.params.height });

export const chooseWindow: Step<P, Found, { window: Rect }> = (c) => {
  const v = c.state;
  const subject: Subject = v.faces.length ? { kind: 'faces', faces: v.faces, mass: v.mass }
    : v.mass ? { kind: 'mass', ...v.mass } : { kind: 'none' };
  const window = cropWindow(c.image, target(c), subject);
  c.output.data = { retain_location: toXywh(window) };
  return { window };
};

/** The window scaled to exactly width x height; JPEG for opaque photos, PNG where there is transparency. */
export const cropAndScale: Step<P, { window: Rect }> = async (c) => {
  const { x0: x, y0: y, w: width, h: height } = c.state.window;
  const img: RasterImage = c.image;
  const s = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .extract({ left: x, top: y, width, height })
    .resize({ ...target(c), fit: 'fill' });
  c.output.images.result = img.channels === 4
    ? { data: await s.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer(), format: 'png' }
    : { data: await s.jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' }).toBuffer(), format: 'jpeg' };
};
