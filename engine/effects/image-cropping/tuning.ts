/**
 * Smart cropping's parameters: the salient-object network and its side, how much of a head and its air a
 * window keeps around a face (shares of the face box), how faces and subject mass steer the window, and the
 * output's JPEG quality. The face proportions are a portrait's usual ones; the rest were set on the shared
 * photos (scripts/quality/cropping.ts).
 */

/** The salient-object network: the same ISNet weights as product background removal. */
export const SALIENCY = 'isnet-medium';
/**
 * ISNet's input side for the crop: 1024, shared with product cutout's session. The crop needs only the
 * subject's column and row sums and the crowns above faces, and 640 kept them as well for about 40 % of the
 * CPU, but a second session beside product cutout's put the soak's peak memory over its target
 * (docs/experiments/image-cropping.md#1024-640-or-512-kept-1024-shared-with-product-cutout).
 */
export const SALIENCY_SIDE = 1024;

// Face proportions, as fractions of the face box: hair and a little air above it (a guess, where no matte
// has shown the crown), chin and some neck below, ears beside it. The eye line sits a little under 0.4 of
// the box from its top.
export const HAIR = 0.5, CHIN = 0.2, SIDE = 0.25, EYES = 0.4;
// Where a matte shows the head's top (the crown), the room kept above the box is the crown plus a little
// air, but at least a skull's height above the brow and at most a face's height (a tall hat, an updo).
export const CROWN = { air: 0.08, min: 0.3, max: 1 };
// Most room above the hair allowance, as a share of the window. A face small in the window (a full-length
// figure) would sit far down with its eyes on the third; it goes up to leave about a tenth of air instead.
export const MAX_HEADROOM = 0.05;
// Faces smaller than this share of the largest kept face's area hold the window but do not steer it.
export const PRINCIPAL = 0.25;
// Mass below this share at either end of the subject counts as stray specks, not as part of it.
export const TAIL = 0.002;
// A subject more than TALL times the window's height keeps its top, if that costs at most a tenth of the
// mass the fullest window would hold; a little air (a share of the window) is left above it.
export const TALL = 1.25, NEAR_MOST = 0.9, TOP_AIR = 0.03;
// With faces, windows within this share of the subject's mass of the fullest one count as equally full,
// and composition chooses among them (a matte's soft edge should not decide where the eyes go).
export const SLACK = 0.002;

// The head, seen in the matte beyond a face's top edge: rows (across the middle of the face) where at least
// this share is subject; gaps up to GAP of the face's size are bridged (a hair clip, a bright streak).
export const HEAD_ROW = 0.15, GAP = 0.05, CORE = 0.6;

// Matte values at or below this are haze, not subject.
export const MATTE_FLOOR = 32;

/** JPEG quality of an opaque crop (written with full-resolution chroma, 4:4:4). */
export const JPEG_QUALITY = 92;
