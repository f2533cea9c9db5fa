/**
 * Steps of face beauty: the faces (the portrait template: the 5 largest, largest first) → each retouched
 * in its own window over the result, in order (a later face sees the earlier ones' result where their
 * windows overlap) → PNG, so nothing outside the faces changes by a single level.
 */
import type endpoint from '../../../contract/endpoints/face-beauty.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { sharpenMasked } from '../../image/retouch/sharpen.ts';
import { smoothMasked } from '../../image/retouch/smooth.ts';
import { whitenSkin } from '../../image/retouch/tone.ts';
import type { Step } from '../../pipeline/effect.ts';
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { FaceParsing, ParseOptions } from '../../vision/parsing/face-parsing.ts';
import type { Win } from '../../vision/regions/polygon.ts';
import { retouchMasks, retouchWindow } from '../../vision/regions/skin-mask.ts';
import { readWindow, writeWindow } from '../../image/window.ts';

export type P = Params<typeof endpoint>;

export interface State extends PortraitState {
  /** The result pixels, a copy of the input edited face by face. */
  result: RasterImage;
}

/** Faces that get retouched: the largest five, as decisions.md's other multi-face effects. */
export const BEAUTY_FACES = 5;

/** Defaults as decisions.md (the contract carries them too; a script calling the steps may omit them). */
const degrees = (p: Partial<P>) => ({ sharp: p.sharp ?? 0.3, smooth: p.smooth ?? 0.5, white: p.white ?? 0.3 });

/**
 * Tuning, in face widths where it is a size (scripts/quality-retouch.ts on the shared portraits' tune half).
 * radius: blemishes and blotches up to ~4% of the face flatten; eps: contrasts below ~0.1 (25 levels)
 * count as skin texture (0.0025 left grainy large faces at 0.9-0.95 of their cheek energy); pores (~0.4% of
 * the face) come back at `texture`. white.lift: L units at strength 1 on mid-grey skin; 9 took human's
 * face descriptor below 0.9 similarity on dim group photos at every degree 1 (group2: 0.78, 5: 0.87).
 */
export const TUNING = {
  smooth: { radius: 0.04, eps: 0.01, poreSigma: 0.004, texture: 0.45 },
  white: { lift: 5, even: 0.5, toneSigma: 0.08 },
  sharp: { sigma: 0.004, amount: 1.2 },
};

/**
 * The parsing face beauty asks for: a 384 px model input and only the classes its masks use (see
 * retouchMasks); face-analyzer keeps its own 512 parse. The model costs about 0.55 of 512's time at 384.
 * Smaller failed quality-retouch's tune half: at 320 a headscarf read as hair was sharpened (spill 0.31 %)
 * and a small face's cheeks kept 0.82 of their texture; at 256 the skin over the cheeks fell to about half
 * on some faces and the headscarf spilled 1.8 %.
 */
export const BEAUTY_PARSING: ParseOptions = {
  input: 384,
  classes: ['skin', 'nose', 'rightBrow', 'leftBrow', 'hair', 'glasses', 'hat', 'earring', 'necklace', 'cloth', 'neck', 'rightEar', 'leftEar'],
};

export const findFaces: Step<P, State> = selectFaces<P, State>(() => ({ count: BEAUTY_FACES, detect: { meshFaces: BEAUTY_FACES } }));

/** One face's edit over the pixels of `win` (interleaved, the image's channels), in place. */
export function retouchFace(px: Uint8Array | Buffer, ch: number, face: Face, parsing: FaceParsing, win: Win, p: Partial<P>): void {
  const d = degrees(p), t = TUNING;
  const m = retouchMasks(face, parsing, win);
  const fw = m.faceWidth, { w, h } = win;
  smoothMasked(px, ch, w, h, m.skin, {
    radius: t.smooth.radius * fw, eps: t.smooth.eps, poreSigma: Math.max(0.7, t.smooth.poreSigma * fw), texture: t.smooth.texture,
  }, d.smooth);
  if (d.white > 0) whitenSkin(px, ch, w, h, m.tone, { strength: d.white, lift: t.white.lift, even: t.white.even, toneSigma: t.white.toneSigma * fw });
  sharpenMasked(px, ch, w, h, m.sharp, Math.max(0.7, t.sharp.sigma * fw), d.sharp * t.sharp.amount);
}

export const retouch: Step<P, State> = async (c, kit) => {
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  c.state.result = result;
  await perFace<P, State>(async (face) => {
    // Faces past the mesh limit have no mesh, hence no masks: they are left as they are.
    const win = retouchWindow(face, result);
    if (!win) return;
    const parsing = await c.facts.parsing(face, BEAUTY_PARSING);
    const px = readWindow(result, win);
    retouchFace(px, result.channels, face, parsing, win, c.params);
    writeWindow(result, win, px);
  })(c, kit);
};

export const encodeResult: Step<P, State> = async (c) => {
  const r = c.state.result!;
  c.output.images.result = await encodePngFast({ data: r.data, width: r.width, height: r.height, channels: r.channels });
};
