/**
 * The hair loss simulation's tuning: its parameters, named, with what each controls and its unit. Frame
 * units are the head frame's (hairline.ts): u in half face widths, v in forehead heights; "face width" is
 * the mesh's cheek to cheek. The stages' own shapes (Norwood and Ludwig) and the skull's geometry are the
 * loss model in hairline.ts. Floors of a pixel or two on sizes scaled by the face stay inline where they are
 * used: they keep a small face's blurs and reaches from vanishing, and tune nothing.
 */

// Reading the photo.

/** Seed of the strand noise: the same photo and level always give the same result. */
export const SEED = 20261125;
/** Parsing input side: the hair class at 384 is as good for this as at 512, at 0.6 of the time. */
export const PARSE_INPUT = 384;
/**
 * The window an edit works in (frame units): across to |u| `side` at least and `skullSides` of the skull's
 * half width either side of its centre; from `bottom` (the cheeks, skin to sample when a fringe hides the
 * forehead) up to v `top` at least and `aboveSkull` over the skull's top.
 */
export const HEAD_WINDOW = { side: 1.7, skullSides: 1.3, bottom: -1.0, top: 2.6, aboveSkull: 1 };
/** Person matte (0..255) from which the matte-based hair mask is trusted (dark backdrops pass for dark hair). */
export const MATTE_SURE = 128;
/** Person matte (0..255) under which a pixel is backdrop, whatever the parsing says. */
export const MATTE_CLEAR = 13;

// The hair the parsing sees.

/** Parsing hair probability from which a pixel holds some hair: the edit's weight starts there. */
export const HAIR_SOME = 0.25;
/**
 * Parsing hair probability from which a pixel is hair in full (the soft edge of the hair against the
 * background counts as hair, else half a strand would stay standing round a bald head). The edit's weight
 * rises over HAIR_RAMP (HAIR_FIRM less HAIR_SOME) up to it; below HAIR_SOME (a headscarf or a dark backdrop
 * the model is unsure of) it is none.
 */
export const HAIR_FIRM = 0.55, HAIR_RAMP = 0.3;
/** Parsing hair probability under which a pixel holds no hair at all. */
export const NO_HAIR = 0.1;
/** Parsing skin probability under which a pixel is not skin (with NO_HAIR: not this head). */
export const NOT_SKIN = 0.3;
/**
 * Below this share of the scalp seen as hair, a face has no hair to lose (see hairCover): hats, headscarves
 * and bald heads read about none, thin white hair well above
 * (docs/experiments/ai-hair-loss-simulation.md#no-hair-to-lose-below-a-hair-cover-of-005).
 */
export const MIN_HAIR_COVER = 0.05;
/**
 * Where hairCover reads the scalp: a grid of frame points over the top of the usual skull. The upper bounds
 * lie a hair past the last point, so the stepped coordinate reaches it.
 */
export const SCALP_PATCH = { u0: -0.8, u1: 0.801, du: 0.1, v0: 1.05, v1: 1.451, dv: 0.05 };
/** Bangs: hair over this share of the forehead (fringeCover), hiding the hairline. */
export const BANGS_COVER = 0.25;
/** Where fringeCover reads the forehead: across from its middle (du) and up from the brows (v). */
export const FOREHEAD_PATCH = { u0: -0.6, u1: 0.601, du: 0.1, v0: 0.3, v1: 0.751, dv: 0.05 };
/**
 * Where hangsBeside looks for long hair: just outside the skull's side (du past its half width), level
 * with the ears (v). The side counts when hair covers at least half of it.
 */
export const BESIDE_PATCH = { du: [0.05, 0.15, 0.25], v0: -0.8, v1: -0.199, dv: 0.15 };
/** The parsing's hair runs past its square when it touches more than this share of the square's edges. */
export const EDGE_SHARE = 0.02;
/**
 * Scans up the head (frame v, in SCAN_STEP) probe three points across it (PROBES, in u); hair is found
 * where PROBES_HIT of them see it. The person's own hairline is looked for over HAIRLINE_SCAN (v), the
 * skull's top from SKULL_SCAN_FROM up to the window's top.
 */
export const SCAN_STEP = 0.02, PROBES = [-0.12, 0, 0.12], PROBES_HIT = 2;
export const HAIRLINE_SCAN = { from: 0.2, to: 1.6 }, SKULL_SCAN_FROM = 0.6;

// Which hair goes.

/**
 * Share of the loss that thins every pixel's hair rather than removing whole strands: `least` where the
 * hair's strands (strandScale's spacing) are `px` pixels wide or more and can go one by one, rising as they
 * shrink under a pixel, to `most`. A face 200 px wide holds strands about a pixel wide: hair removed pixel
 * by pixel there left a fringe of one-pixel dashes at a receding hairline (superbomba man_3 at 100 %), where
 * a photograph of a thinning hairline shows the hair's tone fading into the skin over a few pixels.
 */
export const THINNER = { least: 0.25, most: 0.65, px: 2 };
/** A strand's width, as a share of the face width (the hair texture strandKeep ranks); at least MIN_STRAND px. */
export const STRAND_WIDTH = 0.003, MIN_STRAND = 0.7;
/**
 * The strands fan out from a point this far below the brows (frame v): they run up and outward over the
 * head as hair grows from the crown and the temples.
 */
export const STRAND_FOCUS = 1.2;
/**
 * The hair's own texture's share in which strands go where a man's hairline recedes (the rest: fibreScale's
 * noise). At strandKeep's usual 0.75 the hair thinned out in blobs; below about 0.2 dark hair's own
 * strands no longer show in what stays.
 */
export const FIBRE_TEXTURE = 0.35;
/**
 * The hair's flow (strands.ts flowNoise): its orientation read over `tensor` strand widths, the frame's fan
 * weighing `prior` of the window's mean gradient energy (it decides where the hair shows no direction), and
 * the flow noise's share `share` of a man's strand noise (the rest the clumps' lattice noise).
 */
export const FLOW = { tensor: 3, prior: 0.25, share: 0.7 };
/**
 * A man's loss is averaged along the hair's flow over this share of the face width either way (about 5 mm
 * on a face 14 cm wide): where a hairline crosses the strands they end over that band, each at its own place.
 */
export const HAIRLINE_BAND = 0.035;
/** Share of the hair's own texture in strandKeep (the rest is strand noise, for hair too blurred to rank). */
export const KEEP_TEXTURE = 0.75;
/** Softness of strandKeep's ranks: scalp shows through a strand's edges before its dark core goes. */
export const KEEP_SOFT = 0.2;
/** Softness of a strand's edge in noise units (strandGone's default). */
export const STRAND_EDGE = 0.06;
/** How far (frame v) hairlines wander either way. */
export const JITTER = 0.16;
/** The hairline's slow wander: one bump per this many half face widths along it. */
export const WANDER = 0.2;
/**
 * A fringe hanging over the forehead goes as the hairline above it does, within HANG_WIDTH of the
 * forehead's middle (u), bangs within BANGS_WIDTH (they reach over the temples too), fading out over
 * HANG_FADE beyond.
 */
export const HANG_WIDTH = 0.45, BANGS_WIDTH = 0.9, HANG_FADE = 0.2;
/** How far behind the hairline (frame v) the bangs' strands grow from. */
export const FRINGE_ROOT = 0.2;
/**
 * A man's loss field smoothed over this share of the face width (smoothLoss): no corners in the hairline.
 * Fully from SMOOTH_FROM + SMOOTH_FADE (v) up, not below SMOOTH_FROM.
 */
export const LOSS_SMOOTH = 0.03, SMOOTH_FROM = 0.6, SMOOTH_FADE = 0.3;
/** Hair the person matte holds may stand this far out of the skull (skull radii) and still be theirs. */
export const PERSON_BAND = 2.2;
/**
 * Over the backdrop (outside the bald head's outline) hair goes whole or stays, not thinned (a thinned mop
 * floats as a lattice in the air): its loss turned into a step at BACKDROP_GOES, BACKDROP_SOFT wide
 * (docs/experiments/ai-hair-loss-simulation.md#hair-over-the-backdrop-goes-whole-or-stays).
 */
export const BACKDROP_GOES = 0.35, BACKDROP_SOFT = 0.1;
/** Where hair stands over the top of the head (frame v over the skull's top), whose loss templeSide's band takes. */
export const TOP_ABOVE = 0.15;
/** An edit weight from which a pixel counts as changed (about one 8-bit step of the full change). */
export const TOUCHED = 0.004;

// The fringe of wisps and the hairline's shade.

/** How far (share of the face width) the loss reaches over the hair's fringe of wisps. */
export const FRINGE_REACH = 0.025;
/**
 * Where the person matte still sees the person (above PERSON_SEEN) beyond the parsing's hair, the wisps
 * reach PERSON_FRINGE times as far: the parsing's hair stops short of the hair's soft outline.
 */
export const PERSON_SEEN = 0.03, PERSON_FRINGE = 2;
/** Wisps change nothing at the edit's floor (FLOOR) and fully this far above it (frame v). */
export const WISP_FADE = 0.15;
/** The band of skin under bared scalp that lay in the hair's shade (share of the face width). */
export const SHADOW_BAND = 0.08;
/**
 * That band's weight: none where the blurred bared hair is under SHADOW_FROM, full from SHADOW_FULL; none
 * at the edit's floor, full SHADOW_RISE above it (frame v).
 */
export const SHADOW_FROM = 0.02, SHADOW_FULL = 0.4, SHADOW_RISE = 0.25;
/** The skull's outline is soft over this much of its radius where the shade band stops at it. */
export const SKULL_SOFT = 0.08;

// The bald head's outline.

/** Short hair's thickness over the skull (share of the face width): the person's outline less this is the head's. */
export const HAIR_THICKNESS = 0.03;
/** The bald head reaches at most this far out of the usual skull, and at least this far in (in its radii). */
export const HEAD_MAX = 1.2, HEAD_MIN = 0.8;
/** The person's outline is scanned out from the skull's centre in these steps (skull radii). */
export const REACH_STEP = 0.01;
/** Directions this far below the skull's centre (sine of the angle) keep the usual skull: the face is there. */
export const BELOW_CENTRE = -0.1;
/** The head's outline is read in this many directions round the skull. */
export const ANGLES = 180;
/** ... and smoothed round the circle by `passes` box filters `radius` directions either way. */
export const OUTLINE_SMOOTH = { passes: 3, radius: 6 };
/** Inside the outline is soft over this much of the skull's radius. */
export const OUTLINE_SOFT = 0.04;
/**
 * Short hair lies SHORT_HAIR (frame v) thick over a skull whose top stands TOP_RAISE above the usual
 * height at most (big hair's guess goes back down from there) and TOP_LEAST at least.
 */
export const SHORT_HAIR = 0.1, TOP_RAISE = 0.12, TOP_LEAST = 1.15;

// The scalp.

/** Parsing skin probability from which a pixel is skin to learn from. */
export const SKIN = 0.6;
/** Skin to learn from holds less hair than this (parsing probability). */
export const SAMPLE_HAIR = 0.15;
/**
 * The forehead the scalp is learnt from (v0..v1 over the brows, within u of the forehead's middle), used
 * when it holds `least` pixels; else any skin of the face in the wider box, when that holds `least`.
 */
export const FOREHEAD_SAMPLE = { v0: 0.12, v1: 0.75, u: 0.6, least: 150 };
export const ANY_SKIN_SAMPLE = { v0: -1.0, v1: 0.9, u: 0.9, least: 40 };
/** The dome is shaded as an ellipsoid this much larger than the head's outline (its edge is not yet grazing). */
export const SHADE_WIDEN = 1.06;
/**
 * Light from above the camera by at least this much (y over z): the forehead's own rise says more only
 * where the hair's shade at its top does not hide it.
 */
export const LIGHT_UP = 0.35;
/**
 * Pixels are shared out between the faces of a photo by their distance to each face's skull ellipse
 * (hair-maps.ts otherHeads), which below its centre reaches this far down in v (to about the chin).
 */
export const HEAD_BELOW = 1.6;
/**
 * The terminator (scalp-layer.ts): the dome's light falls toward the head's own outline, from `from` of its
 * radius (smoothstep), by as much as the face's skin near its outline (`edge` half face widths off the
 * midline, `edgeV` in v) is darker than its forehead, kept within `depth` (the lower bound with fewer than
 * `least` pixels of either), on top of the forehead's fitted fall-off (whose floor kept the dome
 * lit evenly to its silhouette). It fades out toward the skin the scalp meets: where that skin, blurred over
 * `seam` face widths, reaches 1 / `seamFull`.
 */
export const RIM = { from: 0.5, depth: [0.35, 0.55], edge: [0.75, 1.0], edgeV: [-0.6, 0.6], least: 100, seam: 0.04, seamFull: 2 };
/** The light's share that reaches a surface turned away from it (the room's fill). */
export const AMBIENT = 0.45;
/**
 * Each channel's slope against the dome's light is the forehead's least-squares one, kept between `least`
 * and `most` times the proportional one (a few noisy samples cannot turn the dome's shading over).
 */
export const COLOUR_SLOPE = { least: 1, most: 1 };
/** The dome's hue is read on the forehead from v (the upper forehead), when it holds `least` pixels. */
export const UPPER_FOREHEAD = { v: 0.45, least: 60 };
/** The forehead's highlights: this quantile of its lightness (the cap) and of its luminance (the sheen). */
export const HIGHLIGHT = 0.97;
/** The sheen's height over the forehead's mean luminance is kept within this range (linear luminance). */
export const SHEEN_RANGE = { least: 0.01, most: 0.25 };
/** The sheen's strength over the forehead's own highlights (a bald head shines a little more). */
export const SHEEN_GAIN = 1.2;
/** The sheen's colour: this share the skin's tint, the rest white (the light is whiter than the skin). */
export const SHEEN_SKIN = 0.5;
/**
 * The scalp rolls off into the forehead's highlights over this much L below them (softCap), instead of
 * stopping flat at them: a small face's dome, whose model (with its sheen) lies above them, came back one
 * plain light cap with no shading.
 */
export const CAP_KNEE = 10;
/**
 * The forehead's fitted fall-off round the dome (scalp.ts fitDomeShade), as the r² coefficient over the
 * forehead's mean: at least `least` darker at the outline (a dome lit evenly to its edge read as a flat
 * sticker), at most `most` (a grazing sphere's); and nowhere more than `reach` darker than the darkest
 * the fit gives on the forehead's own normals. The fit is pulled toward `prior` (and no slopes) by a ridge of
 * `ridge` per sample: about a normal spread's variance (0.02 is a band of normals 0.5 wide), so a frontal
 * forehead speaks for itself and a turned head's narrow side does not.
 */
export const SHADE_CURVE = { least: -0.12, most: -0.25, reach: 0.1, prior: -0.15, ridge: 0.02 };
/**
 * How much darker scalp is under the hair still standing (at no loss), than bare: a man's, under the dense
 * hair behind a receding hairline, and a woman's, seen through her thinning top, which faces the light (at
 * a man's 0.35 a blonde's scalp came back as dark as her hair: woman_1 and woman_3 changed nothing to see).
 */
export const UNDER_HAIR_SHADE = { man: 0.35, woman: 0.08 };
/**
 * The seam: the skin the scalp meets (down to SEAM_FROM in v, where the edit's weight is under
 * SEAM_UNTOUCHED), blurred over SEAM_SIGMA of the face width; the difference carried over the dome by a
 * membrane of MEMBRANE_SWEEPS sweeps.
 */
export const SEAM_FROM = -0.3, SEAM_UNTOUCHED = 0.02, SEAM_SIGMA = 0.03, MEMBRANE_SWEEPS = 40;
/**
 * Under bangs the skin the scalp's membrane is pinned to lies in their shade (its lit part hides under
 * them): the correction falls off over this share of the face width instead of carrying that shade over
 * the whole dome (docs/experiments/ai-hair-loss-simulation.md#the-scalps-membrane-under-bangs-falls-off).
 */
export const BANGS_MEMBRANE = 0.15;
/** The texture carried from the forehead: detail finer than this share of the face width. */
export const TEXTURE_SIGMA = 0.008;
/**
 * The scalp's grain over the forehead's: the same (its lines are kept off it by LINES; at 0.7, the value from
 * before they were, the dome read 0.67 to 0.74 of the forehead's fine energy and looked smoother than it).
 */
export const TEXTURE_GAIN = 1;
/** The forehead's grain is read this many TEXTURE_SIGMAs inside it (clear of brows, eyes, hairline). */
export const TEXTURE_MARGIN = 2.5;
/** ... tiled onto the scalp when at least this many pixels show, soft-clipped at this many of its spreads. */
export const TILE_LEAST = 100, TEXTURE_CLIP = 2.5;
/**
 * The forehead's lines kept off the scalp (grain.ts isotropic): the band's structure tensor read over
 * `window` TEXTURE_SIGMAs; its coherence passes it up to `from` and stops it from `to`; what is left is
 * lifted back to the forehead's spread by at most `lift`.
 */
export const LINES = { window: 2, from: 0.35, to: 0.7, lift: 2 };
/** Seeded grain (the scalp's where no forehead can be tiled, the backdrop's) is blurred this much (px): about a pixel's. */
export const GRAIN_SIGMA = 0.7;
/**
 * The forehead's mottling: its band between TEXTURE_SIGMA and MOTTLE_BROAD times it, at most MOTTLE_MOST
 * L, carried as smooth noise MOTTLE_BLOTCH TEXTURE_SIGMAs wide.
 */
export const MOTTLE_BROAD = 5, MOTTLE_MOST = 2, MOTTLE_BLOTCH = 2;
/** The forehead's mottling carried onto the scalp, as a share of its spread (the scalp is evener). */
export const MOTTLE_GAIN = 0.5;

// The backdrop behind hair that stood outside the head.

/** The backdrop's source: pixels the parsing calls background at least this surely (with NO_HAIR). */
export const BACKGROUND_SURE = 0.6;
/** With the person matte, the source keeps this share of the face width away from the person's edge. */
export const PERSON_MARGIN = 0.01;
/** Lab distance within which a background pixel passes for the hair (and is no source of the fill). */
export const HAIR_LIKE = 12;
/** Fewer source pixels than this and nothing is filled in (the strict source falls back to the loose one first). */
export const BACKDROP_LEAST = 50;
/** The backdrop is mirrored in from up to this share of the face width beyond its edge ... */
export const MIRROR_REACH = 0.2;
/** ... where the reflection lies within this many L (and a* plus b*) of the smooth fill there. */
export const MIRROR_MATCH = 12;
/** The backdrop's grain: its band finer than BACKDROP_FINE px, at most BACKDROP_GRAIN L of spread. */
export const BACKDROP_FINE = 1.5, BACKDROP_GRAIN = 4;
