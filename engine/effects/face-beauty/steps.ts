/**
 * Steps of face beauty: the faces (the portrait template: the 5 largest, largest first) → each retouched
 * in its own window over the result, in order (a later face sees the earlier ones' result where their
 * windows overlap) → PNG, so nothing outside the faces changes by a single level.
 */
import type endpoint from '../../../contract/endpoints/face-beauty.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import type { Rect } from '../../image/rect.ts';
import { sharpenMasked } from './sharpen.ts';
import { faceEps, faceShapeBand, sizeRamp, smoothMasked } from '../../looks/smooth.ts';
import { whitenSkin } from '../../looks/tone.ts';
import type { Step } from '../../pipeline/effect.ts';
import { eachFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { FaceParsing } from '../../vision/parsing/face-parsing.ts';
import { retouchMasks, retouchWindow, spareLowerFace } from '../../vision/regions/skin-mask.ts';
import { readWindow, writeWindow } from '../../image/window.ts';
import { BEAUTY_FACES, BEAUTY_PARSING, TUNING } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Retouched {
  /** The result pixels, a copy of the input edited face by face. */
  result: RasterImage;
}

/** Defaults as docs/interface.md#face-beauty (the contract carries them too; a script calling the steps may omit them). */
const degrees = (p: Partial<P>) => ({ sharp: p.sharp ?? 0.3, smooth: p.smooth ?? 0.5, white: p.white ?? 0.3 });

export const findFaces = selectFaces<P>(() => ({ count: BEAUTY_FACES, detect: { meshFaces: BEAUTY_FACES } }));

/** One face's edit over the pixels of `win` (interleaved, the image's channels), in place. */
export function retouchFace(px: Uint8Array | Buffer, ch: number, face: Face, parsing: FaceParsing, win: Rect, p: Partial<P>): void {
  const d = degrees(p), t = TUNING;
  const m = retouchMasks(face, parsing, win);
  const fw = m.faceWidth, { w, h } = win;
  spareLowerFace(m, face, sizeRamp(fw, t.smooth.lowerFace.fromWidth, t.smooth.lowerFace.toWidth));
  smoothMasked(px, ch, w, h, m.skin, {
    radius: t.smooth.radius * fw, eps: faceEps(t.smooth.eps, fw, t.smooth.epsWidth), poreSigma: Math.max(0.7, t.smooth.poreSigma * fw), texture: t.smooth.texture,
    ...faceShapeBand(fw, t.smooth.shape),
    keep: { energy: t.smooth.keepEnergy, sigma: Math.max(1, 0.01 * fw), where: m.skin },
  }, d.smooth * Math.min(1, fw / t.smooth.fullWidth));
  if (d.white > 0) whitenSkin(px, ch, w, h, m.tone, { strength: d.white, lift: t.white.lift, even: t.white.even, toneSigma: t.white.toneSigma * fw });
  // At least blurPlane's finest blur (three radius-1 boxes, sigma √2; below sigma 0.87 it returns the plane,
  // and faces under about 220 px got no sharpening at all), with the amount fading in proportion below it:
  // a full-strength band wider than the face's detail cost small faces their likeness.
  const sharpSigma = t.sharp.sigma * fw;
  sharpenMasked(px, ch, w, h, m.sharp, Math.max(1, sharpSigma), d.sharp * t.sharp.amount * Math.min(1, sharpSigma));
}

export const retouch: Step<P, PortraitState, Retouched> = async (c, kit) => {
  const result: RasterImage = { ...c.image, data: Buffer.from(c.image.data) };
  await eachFace(c.state.faces, kit, async (face) => {
    // Faces past the mesh limit have no mesh, hence no masks: they are left as they are.
    const win = retouchWindow(face, result);
    if (!win) return;
    const parsing = await c.facts.parsing(face, BEAUTY_PARSING);
    const px = readWindow(result, win);
    retouchFace(px, result.channels, face, parsing, win, c.params);
    writeWindow(result, win, px);
  });
  return { result };
};

export const encodeResult: Step<P, Retouched> = async (c) => {
  const r = c.state.result;
  c.output.images.result = await encodePngFast({ data: r.data, width: r.width, height: r.height, channels: r.channels });
};
