/**
 * The hair loss simulation's tuning: its parameters, named, with what each controls and its unit. Frame
 * units are the head frame's (hairline.ts): u in half face widths, v in forehead heights; "face width" is
 * the mesh's cheek to cheek.
 */

/** Seed of the strand noise: the same photo and level always give the same result. */
export const SEED = 20261125;
/** Parsing input side: the hair class at 384 is as good for this as at 512, at 0.6 of the time. */
export const PARSE_INPUT = 384;
/** Share of the loss that thins every strand rather than removing whole ones. */
export const THINNER = 0.25;
/** A strand's width, as a share of the face width (the hair texture strandKeep ranks). */
export const STRAND_WIDTH = 0.003;
/**
 * The hair's own texture's share in which strands go where a man's hairline recedes (the rest: fibreScale's
 * noise). At strandKeep's usual 0.75 the hair thinned out in blobs; below about 0.2 dark hair's own
 * strands no longer show in what stays.
 */
export const FIBRE_TEXTURE = 0.35;
/**
 * A man's loss field smoothed over this share of the face width (smoothLoss): no corners in the hairline.
 * Fully from SMOOTH_FROM + 0.3 (v) up, not below SMOOTH_FROM.
 */
export const LOSS_SMOOTH = 0.03, SMOOTH_FROM = 0.6;
/** Softness of strandKeep's ranks: scalp shows through a strand's edges before its dark core goes. */
export const KEEP_SOFT = 0.2;
/** Lab distance within which a background pixel passes for the hair (and is no source of the fill). */
export const HAIR_LIKE = 12;
/** The band of skin under bared scalp that lay in the hair's shade (share of the face width). */
export const SHADOW_BAND = 0.08;
/** Short hair's thickness over the skull (share of the face width): the person's outline less this is the head's. */
export const HAIR_THICKNESS = 0.03;
/** The dome is shaded as an ellipsoid this much larger than the head's outline (its edge is not yet grazing). */
export const SHADE_WIDEN = 1.06;
/** The bald head reaches at most this far out of the usual skull (in its radii). */
export const HEAD_MAX = 1.2;
/** Hair the person matte holds may stand this far out of the skull (skull radii) and still be theirs. */
export const PERSON_BAND = 2.2;
/**
 * Over the backdrop (outside the bald head's outline) hair goes whole or stays, not thinned: its loss
 * turned into a step at BACKDROP_GOES, BACKDROP_SOFT wide. Thinned there, spiky black hair over a light
 * wall came back as a lattice of blobs and rims floating in the air (helen_3248183827 at man_4 and man_5,
 * where the crown's 0.8 gave the hair over it a loss of 0.5).
 */
export const BACKDROP_GOES = 0.35, BACKDROP_SOFT = 0.1;
/** Where hair stands over the top of the head (frame v over the skull's top), whose loss templeSide's band takes. */
export const TOP_ABOVE = 0.15;
/** Bangs: hair over this share of the forehead (fringeCover), hiding the hairline. */
export const BANGS_COVER = 0.25;
/**
 * Under bangs the skin the scalp's membrane is pinned to lies in their shade (its lit part hides under
 * them): the correction falls off over this share of the face width instead of carrying that shade over
 * the whole dome (helen_3139620200's dome came out 10 L darker than the forehead, flat brown).
 */
export const BANGS_MEMBRANE = 0.15;
/** How far behind the hairline (frame v) the bangs' strands grow from. */
export const FRINGE_ROOT = 0.2;
/** How far (share of the face width) the loss reaches over the hair's fringe of wisps. */
export const FRINGE_REACH = 0.025;
/** The sheen's strength over the forehead's own highlights (a bald head shines a little more). */
export const SHEEN_GAIN = 1.2;
/**
 * The scalp rolls off into the forehead's highlights over this much L below them (softCap), instead of
 * stopping flat at them: a small face's dome, whose model (with its sheen) lies above them, came back one
 * plain light cap with no shading.
 */
export const CAP_KNEE = 10;
/** The forehead's mottling carried onto the scalp, as a share of its spread (the scalp is evener). */
export const MOTTLE_GAIN = 0.5;
/** How much darker scalp is under the hair still standing (at no loss), than bare. */
export const UNDER_HAIR_SHADE = 0.35;
/** Parsing skin probability from which a pixel is skin to learn from. */
export const SKIN = 0.6;
/** How far (frame v) hairlines wander either way. */
export const JITTER = 0.16;
/** The texture carried from the forehead: detail finer than this share of the face width. */
export const TEXTURE_SIGMA = 0.008;
/** A scalp's grain is softer than a forehead's (no frown lines). */
export const TEXTURE_GAIN = 0.7;
/**
 * Below this share of the scalp seen as hair, a face has no hair to lose (see hairCover): hats, headscarves
 * and a bald head measured 0 on the shared photos, thin white hair (Biden) 0.12.
 */
export const MIN_HAIR_COVER = 0.05;
