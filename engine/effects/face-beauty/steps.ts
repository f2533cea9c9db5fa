/**
 * Steps of face beauty: the faces (the portrait template: the 5 largest, largest first) → each retouched
 * in its own window over the result, in order (a later face sees the earlier ones' result where their
 * windows overlap) → PNG, so nothing outside the faces changes by a single level.
 */
import type endpoint from '../../../contract/endpoints/face-beauty.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { encodePngFast } from '../../image/encode.ts';
import type { RasterImage } from '../../image/raster.ts';
import { sharpenMasked } from './sharpen.ts';
import { faceEps, faceShapeBand, sizeRamp, smoothMasked } from '../../looks/smooth.ts';
import { whitenSkin } from '../../looks/tone.ts';
import type { Step } from '../../pipeline/effect.ts';
import { perFace, selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { FaceParsing, ParseOptions } from '../../vision/parsing/face-parsing.ts';
import type { Win } from '../../image/polygon.ts';
import { retouchMasks, retouchWindow, spareLowerFace } from '../../vision/regions/skin-mask.ts';
import { readWindow, writeWindow } from '../../image/window.ts';

export type P = Params<typeof endpoint>;

export interface State extends PortraitState {
  /** The result pixels, a copy of the input edited face by face. */
  result: RasterImage;
}

/** Faces that get retouched: the largest five, as the other multi-face effects (docs/interface.md#face-beauty). */
export const BEAUTY_FACES = 5;

/** Defaults as docs/interface.md#face-beauty (the contract carries them too; a script calling the steps may omit them). */
const degrees = (p: Partial<P>) => ({ sharp: p.sharp ?? 0.3, smooth: p.smooth ?? 0.5, white: p.white ?? 0.3 });

/**
 * Tuning, in face widths where it is a size (scripts/quality-retouch.ts on the shared portraits' tune half;
 * the figures behind each value are in the commit messages).
 * radius: blemishes and blotches up to ~4 % of the face flatten; eps: contrasts below ~0.1 (25 levels)
 * count as skin texture; pores (~0.4 % of the face) come back at `texture`. white.lift: L units at
 * strength 1 on mid-grey skin; more took the face descriptor below 0.9 similarity on dim group photos.
 * smooth.shape (smooth.ts faceShapeBand): of what the filter flattened, the part broader than 1.5 % of the
 * face (the nose's and cheekbones' shading, folds: what a face is recognised by) comes back at `share`.
 * On faces under 100 px, 1.5 % is under the minPx floor; there the band stays at minPx and smallShare of
 * it comes back, and faces narrower than fullWidth px are smoothed in proportion, or identity fell.
 * smooth.keepEnergy: faces large enough to have a pore band (about 220 px and up) get more of it back,
 * until the result keeps half the fine texture's energy over the skin: at every degree 1 they looked
 * airbrushed without it.
 * smooth.epsWidth (smooth.ts faceEps): below this face width the contrast the filter counts as blemish
 * grows as the face shrinks: on a 50 px face what is left at pixel scale is JPEG blocks and noise, not pores.
 * smooth.lowerFace (lowerFacePlane: chin, jaw, the folds beside the mouth): smoothed in full from toWidth px,
 * not at all below fromWidth. On a small face the smile lines, mouth corners and the jaw's and a beard's
 * shadow are 1-2 px lines, what the face is recognised (and its gender read) by, not blemishes; flattening
 * them turned small men female and cost likeness (the ablation in scripts/ablate-beauty-identity.ts).
 */
export const TUNING = {
  smooth: { radius: 0.04, eps: 0.01, poreSigma: 0.004, texture: 0.45, shape: { sigma: 0.015, share: 0.3, minPx: 1.5, smallShare: 0.8 }, fullWidth: 40, keepEnergy: 0.5, epsWidth: 100, lowerFace: { fromWidth: 35, toWidth: 50 } },
  white: { lift: 5, even: 0.5, toneSigma: 0.08 },
  sharp: { sigma: 0.004, amount: 1.2 },
};

/**
 * The parsing face beauty asks for: a 320 px model input over a tighter square than face-analyzer's
 * (1.05 x CelebA-HQ's framing, centred 0.15 eye-to-mouth below the eyes: forehead to chin and the ears
 * with a little hair and neck, which is all its masks need) and only the classes its masks use (see
 * retouchMasks). The face gets as many model pixels as at 384 over the default 1.25 square, for 0.74 of
 * its CPU (359 against 485 ms a face, median of the tune half's 21 faces, loaded 2 cores); the masks
 * agree with 384's at skin/tone IoU 0.84-0.96. 320 over the default square failed quality-retouch's tune
 * half (a headscarf read as hair was sharpened, spill 0.31 %; a small face's cheeks kept 0.82 of their
 * texture); 256 was worse.
 */
export const BEAUTY_PARSING: ParseOptions = {
  input: 320,
  frame: { scale: 1.05, down: 0.15 },
  classes: ['skin', 'nose', 'rightBrow', 'leftBrow', 'hair', 'glasses', 'hat', 'earring', 'necklace', 'cloth', 'neck', 'rightEar', 'leftEar'],
  // retouchMasks reads these only summed (hair alone too, for the sharpening): 5 planes to bring to full
  // resolution instead of up to 13. A modest gain: warp wall a parse, merged run first, 8 runs at load 9:
  // obama 172 vs 180 ms, biden-obama's two faces 158 vs 202 ms; the parse's CPU is mostly the model's.
  merge: [['skin', 'nose'], ['rightBrow', 'leftBrow'], ['glasses', 'hat', 'earring', 'necklace', 'cloth'], ['neck', 'rightEar', 'leftEar']],
};

export const findFaces: Step<P, State> = selectFaces<P, State>(() => ({ count: BEAUTY_FACES, detect: { meshFaces: BEAUTY_FACES } }));

/** One face's edit over the pixels of `win` (interleaved, the image's channels), in place. */
export function retouchFace(px: Uint8Array | Buffer, ch: number, face: Face, parsing: FaceParsing, win: Win, p: Partial<P>): void {
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
