/**
 * The red lip gloss's tuning: the red, how far the lips' lightness follows it, and the highlight's shape,
 * light and strength. Sizes in face widths are the mesh's cheek to cheek (gloss.ts's `scale`).
 */

/**
 * A blue-leaning classic red (#B0122E) at 85%: strong, with the lips' own colour still under it; the lips'
 * mean lightness moves 0.3 of the way to the red's (their own depth kept).
 */
export const RED = { rgb: [176, 18, 46] as const, opacity: 0.85, lightness: 0.3 };
/** How much of the highlight's light is screened on at its peak. */
export const GLOSS = 0.9;

// The light's direction, from the skin's shading around the lips.

/** The skin around: where the lips' mask blurred over `sigma` face widths is under `below`. */
export const SKIN_AROUND = { sigma: 0.02, below: 0.02 };
/** The skin's broad shading: its lightness blurred over this many face widths. */
export const SHADING_SIGMA = 0.05;
/** The shading's gradient is read where the blurred skin weight is at least this on every side. */
export const SHADING_LEAST = 0.2;
/** A strong side light: this many L across a face width. */
export const STRONG_LIGHT = 40;
/**
 * The light's tilt from the viewer: each of its x and y within TILT_EACH, biased FROM_ABOVE upward (most
 * portrait light comes from above), the two together within TILT_MOST.
 */
export const TILT_EACH = 0.6, FROM_ABOVE = 0.35, TILT_MOST = 0.7;

// The highlight.

/** The surface: the lips' mask blurred into a dome over this many face widths ... */
export const DOME_SIGMA = 0.025;
/** ... its slope scaled by this many dome sigmas, so the lips' edges tilt about 45 degrees. */
export const DOME_SLOPE = 2.2;
/** The photo's own brightness over the lips: their lightness blurred over this many face widths. */
export const FINE_SIGMA = 0.004;
/** The lips' bright part: from their median lightness up to this quantile (where the light's colour is read). */
export const BRIGHT = 0.98;
/** Blinn-Phong: a sharp lobe (exponent `sharp`) and a broad one (`broad`) at `broadShare` of its strength. */
export const SPECULAR = { sharp: 60, broad: 8, broadShare: 0.08 };
/**
 * The highlight where the photo is already bright (the real light falls there) in full, LIT_ELSEWHERE of it
 * elsewhere: a third drew thin arcs along the lip line on a child's thin lips.
 */
export const LIT_ELSEWHERE = 0.2;
/** The favoured part (the lower lip, which catches more light) in full, the rest at `base`. */
export const FAVOUR = { base: 0.55, gain: 0.45 };
/** Off the rims: the highlight grows from where the dome is at `from` to full at `to` (an edge's highlight reads as an outline). */
export const CORE = { from: 0.5, to: 0.85 };
/** The light's colour where no lip pixel is bright enough to read it from: a warm white (sRGB). */
export const LIGHT_DEFAULT: [number, number, number] = [255, 252, 248];
/** The brightest lip pixels' tint, this share whitened (lips add their own red). */
export const WHITENED = 0.75;
/**
 * The lips' relief breaks the highlight: weight times 1 + gain * (lightness - its blur over `sigma` face widths)
 * / its spread in the lips, within 0..most (a smooth band read as a row of teeth).
 */
export const TEXTURE = { sigma: 0.012, gain: 0.8, most: 1.6 };
/** The highlight fades toward the mouth's corners: a Gaussian across, sigma `spread` of the lips' width. */
export const CENTRED = { spread: 0.3 };
