/**
 * Face beauty's parameters: how many faces it retouches, the smoothing, whitening and sharpening sizes and
 * amounts, and the face parse it asks for.
 */
import type { ParseOptions } from '../../vision/parsing/face-parsing.ts';

/** Faces that get retouched: the largest five, as the other multi-face effects (docs/interface.md#face-beauty). */
export const BEAUTY_FACES = 5;

/**
 * Tuning, in face widths where it is a size (scripts/quality/retouch.ts on the shared portraits' tune half;
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
 * them turned small men female and cost likeness (the ablation in docs/experiments/face-beauty.md).
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
 * retouchMasks): as many model pixels a face as 384 over the default square, for less CPU
 * (docs/experiments/face-beauty.md#320-px-over-a-tighter-square-kept).
 */
export const BEAUTY_PARSING: ParseOptions = {
  input: 320,
  frame: { scale: 1.05, down: 0.15 },
  classes: ['skin', 'nose', 'rightBrow', 'leftBrow', 'hair', 'glasses', 'hat', 'earring', 'necklace', 'cloth', 'neck', 'rightEar', 'leftEar'],
  // retouchMasks reads these only summed (hair alone too, for the sharpening): 5 planes to bring to full
  // resolution instead of up to 13 (docs/experiments/face-beauty.md#classes-merged-before-they-are-brought-to-full-size).
  merge: [['skin', 'nose'], ['rightBrow', 'leftBrow'], ['glasses', 'hat', 'earring', 'necklace', 'cloth'], ['neck', 'rightEar', 'leftEar']],
};
