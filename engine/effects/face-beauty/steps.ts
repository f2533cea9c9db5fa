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
import { faceEps, faceShapeBand, smoothMasked } from '../../image/retouch/smooth.ts';
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
 * smooth.shape: of what the guided filter flattened, the part broader than 1.5 % of the face (the nose's
 * and cheekbones' shading, folds: what a face is recognised by) comes back at 0.3; at smooth 1 alone
 * takeo's descriptor fell to 0.87 of itself, all at 1 0.88 -> 0.90 with it (0.6 gave 0.99 but a 60 px
 * face's cheeks kept 0.92 of their texture, over the 0.8 target).
 * Small faces (group photos): below 100 px of face width 1.5 % of it is under the shapeMinPx floor, where
 * the shape band was faded out and the smoothing took the face's own shading at pixel scale (a 60 px
 * face's 5 x 5 guided window is 8 % of it): identity at every degree 1 fell to 0.87-0.90 on 45-110 px
 * faces. There the band stays at 1.5 px and smallShape of it comes back, and faces narrower than
 * fullWidth px are smoothed in proportion (at 28 px the cheeks still keep only 0.55-0.65 of their grain).
 * quality:retouch at every degree 1, before -> after: similarity worst tune 0.87 -> 0.95, check 0.89 ->
 * 0.98; cheeks worst tune 0.81 -> 0.83 (woman_cap's blocky 50 px face, over before too), check 0.75 ->
 * 0.79. fullWidth 60 took 28-34 px faces' cheeks to 0.72-0.83; shapeMinPx 2 kept less identity (0.91),
 * smallShape 0.5 0.93 (the tune half's group photos).
 * smooth.keepEnergy: faces large enough to have a pore band (about 220 px and up) get more of it back, up
 * to all of it, until the result keeps half the fine texture's energy (sigma 1 % of the face) over the
 * skin: at every degree 1 the cheeks had kept 0.31-0.69 of it and looked airbrushed at 100 %. Asked of
 * the result at the smoothing's strength, so the default (0.5) keeps what it did. 0.6 and 0.65 took
 * obama's finest texture (neighbour differences) at smooth 1 to 0.78 of itself, where effect.test wants
 * a visible flattening (< 0.7).
 * smooth.epsWidth: below this face width (px) the contrast the filter counts as blemish, not edge, grows as
 * the face shrinks (eps x epsWidth / fw): on a 50 px face a pixel is 2 % of it, and what is left at pixel
 * scale on the skin is JPEG blocks and noise, not pores (the pore band is empty below 175 px) nor features
 * (masked out, and the shape band keeps the shading). At eps 0.01 a ~50 px blocky face kept 0.83 of its
 * cheek energy, a larger radius kept more (0.84 at 3 px, 0.86 at 4: a wider window sees more variance),
 * and neither texture nor smallShape moved it. epsWidth 100 (eps 0.02 at 50 px): tune half at smooth 1,
 * cheeks worst 0.83 -> 0.77, identity worst 0.95 -> 0.93 (group7's 35-60 px faces); 130 took the face to 0.74.
 */
export const TUNING = {
  smooth: { radius: 0.04, eps: 0.01, poreSigma: 0.004, texture: 0.45, shapeSigma: 0.015, shape: 0.3, shapeMinPx: 1.5, smallShape: 0.8, fullWidth: 40, keepEnergy: 0.5, epsWidth: 100 },
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
  smoothMasked(px, ch, w, h, m.skin, {
    radius: t.smooth.radius * fw, eps: faceEps(t.smooth.eps, fw, t.smooth.epsWidth), poreSigma: Math.max(0.7, t.smooth.poreSigma * fw), texture: t.smooth.texture,
    ...faceShapeBand(fw, { sigma: t.smooth.shapeSigma, share: t.smooth.shape, minPx: t.smooth.shapeMinPx, smallShare: t.smooth.smallShape }),
    keep: { energy: t.smooth.keepEnergy, sigma: Math.max(1, 0.01 * fw), where: m.skin },
  }, d.smooth * Math.min(1, fw / t.smooth.fullWidth));
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
