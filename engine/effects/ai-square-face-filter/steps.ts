/**
 * Steps of the square-face avatar: the 5 largest faces → each oval warped toward a rounded square
 * (square-warp.ts) → a square around the largest face, brought to 768 px → cartoon stylisation (flat colour,
 * banded light, clean lines: cartoon.ts) → framed as a rounded square (transparent corners, PNG).
 */
import sharp from 'sharp';
import type endpoint from '../../../contract/endpoints/ai-square-face-filter.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { cartoon, type CartoonOptions } from './cartoon.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { Step } from '../../pipeline/effect.ts';
import { eachFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { faceFrame, warpFace, type FaceFrame } from './square-warp.ts';
import { applyInk, featureInk } from './features.ts';
import { fillPolygon } from '../../image/polygon.ts';
import { blurPlane } from '../../image/frequency.ts';
import { FACE_OVAL } from '../../vision/faces/landmarks.ts';
import { ABOVE_CENTRE, AVATAR, CARTOON, CORNER, INNER_FACE, INNER_LINES, SIDE, SMALL_FACE } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Warped {
  /** The photo with the faces warped. */
  warped: Buffer;
  /** The largest face's frame, which the avatar is cut around (none when it has no mesh). */
  main?: FaceFrame;
  /** Its mesh (the warp leaves the inner features where the mesh has them). */
  mainMesh?: readonly (readonly number[])[];
}

export const findFaces = selectFaces<P>(() => ({ count: 5 }));

export const warp: Step<P, PortraitState, Warped> = async (c, kit) => {
  const warped = Buffer.from(c.image.data);
  let main: FaceFrame | undefined, mainMesh: Warped['mainMesh'];
  await eachFace(c.state.faces, kit, (face, i) => {
    if (!face.mesh) return;
    const f = faceFrame(face.mesh, face.pose?.roll ?? 0);
    if (i === 0) { main = f; mainMesh = face.mesh; }
    warpFace(c.image, warped, f);
  });
  return { warped, main, mainMesh };
};

/**
 * Cartoon settings for a crop enlarged `up` times: an enlarged crop holds no detail finer than its
 * enlargement, so the smoothing and the lines reach further, as its square root (the full factor drew a
 * small face's JPEG blocks as thick blotches; none left the lines too faint to read as a cartoon).
 */
export function enlargedCartoon(up: number): CartoonOptions {
  const s = Math.sqrt(Math.max(1, up));
  return { ...CARTOON, lineSigma: CARTOON.lineSigma * s, radius: Math.round(CARTOON.radius * s) };
}

/** A square of SIDE half-heights around the face, a little above its centre, inside the photo. */
export function avatarWindow(f: FaceFrame, width: number, height: number) {
  const side = Math.max(1, Math.round(Math.min(SIDE * f.b, width, height)));
  const left = Math.round(Math.min(Math.max(0, f.cx - side / 2), width - side));
  const top = Math.round(Math.min(Math.max(0, f.cy - ABOVE_CENTRE * f.b - side / 2), height - side));
  return { left, top, width: side, height: side };
}

export const stylise: Step<P, Warped> = async (c) => {
  const { image } = c;
  const s = c.state;
  // A face without a mesh (beyond the 5 largest) cannot be the main one; selectFaces puts the largest first.
  if (!s.main) throw new Error('the largest face has no mesh');
  const win = avatarWindow(s.main, image.width, image.height);
  const size = AVATAR;
  const { data } = await sharp(s.warped, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .extract(win).flatten({ background: '#ffffff' }).resize(size, size).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const img = { data, width: size, height: size, channels: 3 as const };
  const scale = size / win.width;
  const mesh = s.mainMesh;
  if (mesh && 2 * s.main.b < SMALL_FACE) {
    // A small face: its features drawn from the mesh, and the cartoon's own lines kept off the inner face.
    const at = (i: number) => [(mesh[i][0] - win.left) * scale, (mesh[i][1] - win.top) * scale] as const;
    cartoon(img, enlargedCartoon(scale), innerFaceLines(at, size));
    applyInk(img, featureInk(at, size, size));
  } else {
    cartoon(img, enlargedCartoon(scale));
  }
  const rgba = Buffer.alloc(size * size * 4);
  const r = CORNER * size;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x;
      rgba[i * 4] = data[i * 3]; rgba[i * 4 + 1] = data[i * 3 + 1]; rgba[i * 4 + 2] = data[i * 3 + 2];
      rgba[i * 4 + 3] = Math.round(255 * roundedSquareCoverage(x + 0.5, y + 0.5, size, r));
    }
  }
  c.output.images.result = await encodePngFast({ data: rgba, width: size, height: size, channels: 4 });
};

/**
 * How much of the cartoon's lines to draw: INNER_LINES on the face's oval shrunk toward its centre (soft
 * edge), all elsewhere, so the outline of the head and the hair keep their lines.
 */
function innerFaceLines(at: (i: number) => readonly [number, number], size: number): Float32Array {
  const oval = FACE_OVAL.map(at);
  const cx = oval.reduce((t, p) => t + p[0], 0) / oval.length, cy = oval.reduce((t, p) => t + p[1], 0) / oval.length;
  const inner = fillPolygon(oval.map(([x, y]) => [cx + INNER_FACE * (x - cx), cy + INNER_FACE * (y - cy)] as const), { x0: 0, y0: 0, w: size, h: size });
  const soft = blurPlane(inner, size, size, size / 200);
  for (let i = 0; i < soft.length; i++) soft[i] = 1 - (1 - INNER_LINES) * Math.min(1, soft[i]);
  return soft;
}

/** Anti-aliased coverage of a pixel centre by a square of `side` with corners of radius `r`. */
export function roundedSquareCoverage(x: number, y: number, side: number, r: number): number {
  const dx = Math.max(r - x, 0, x - (side - r)), dy = Math.max(r - y, 0, y - (side - r));
  if (dx === 0 || dy === 0) return 1;
  return Math.min(1, Math.max(0, r - Math.hypot(dx, dy) + 0.5));
}
