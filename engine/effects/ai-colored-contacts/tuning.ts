/**
 * Coloured contacts' tuning: how strongly a lens covers the iris and how dark its ring is, by the words of
 * its description, and how the iris takes the lens's colour (recolour.ts). The eye-colour words' own
 * colours are lens.ts's EYE_COLOURS.
 */

/** How far (0..1) the iris moves to the lens colour: "vivid" and the like, "subtle" and the like (and no text), otherwise. */
export const STRENGTH = { strong: 0.9, subtle: 0.6, usual: 0.78 };
/** How dark (0..1) the limbal ring is drawn: asked for ("dark limbal ring"), refused ("no ring"), otherwise. */
export const RING = { asked: 0.85, none: 0, usual: 0.35 };

/** The iris's pixels are read within this many iris radii of its centre. */
export const IRIS_REACH = 1.3;
/** How far (in lightness) the iris's mean may move: a lens is printed over the iris, it does not replace it. */
export const LIGHTNESS_REACH = 0.8;
/**
 * Lightness above the iris median, with little chroma, that reads as a catchlight: fully from CATCHLIGHT_L,
 * from CATCHLIGHT_FROM of it, where the chroma is under CATCHLIGHT_GREY (C*, fading out up to its `to`).
 */
export const CATCHLIGHT_L = 28;
export const CATCHLIGHT_FROM = 0.6;
export const CATCHLIGHT_GREY = { from: 10, to: 25 };
/**
 * The iris's mean lightness leaves out the pupil and the iris's middle (inside PUPIL_MEAN iris radii); the
 * pupil (about 0.4 of the iris radius) fades in over the next tenth, and the lens is clear there.
 */
export const PUPIL_MEAN = 0.5;
export const PUPIL = { to: 0.4, from: 0.55 };
/** The limbal ring: from `from` to `to` iris radii, darker by up to `darken` L, with `chroma` less of the lens colour. */
export const LIMBAL = { from: 0.78, to: 0.98, darken: 22, chroma: 0.5 };
/**
 * Darker fibres carry less of the lens colour, as a tint over a darker ground does: its chroma scales as
 * `base` + `gain` times the pixel's lightness over the lens's, within `least` and `most`.
 */
export const FIBRE_CHROMA = { base: 0.55, gain: 0.45, least: 0.35, most: 1.15 };
/** An iris weight from which a pixel is changed at all (about one 8-bit step of the full change). */
export const TOUCHED = 0.004;
/** A lighter lens over a darker iris: the fibres' offsets from the iris's mean lightness scaled by new mean / old, at most this. */
export const FIBRE_CONTRAST_MOST = 1.8;
