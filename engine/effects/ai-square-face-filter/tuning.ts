/**
 * The square-face avatar's tuning: the avatar's size and frame, the warp from the face's oval toward a
 * rounded square, and the cartoon stylisation's settings.
 */

// The avatar.

/** The avatar's side (px): a small face's crop is enlarged to it (a group photo's face gave a 104 px avatar). */
export const AVATAR = 768;
/** The avatar's side in oval half-heights (about 2.2 face heights: hair, ears and a little neck). */
export const SIDE = 4.4;
/** The avatar's square is centred this many oval half-heights above the oval's centre (hair over chin). */
export const ABOVE_CENTRE = 0.15;
/** Corner radius as a share of the side. */
export const CORNER = 0.18;

/**
 * A face under this height (px, the mesh oval's) has its features drawn from the mesh (features.ts): the
 * crop holds too few pixels for the cartoon's lines to find eyes and a mouth.
 */
export const SMALL_FACE = 100;
/** The cartoon's own lines are faded on the face's oval shrunk to this share of its size, when features are drawn. */
export const INNER_FACE = 0.85;
/** How much of the cartoon's own lines stays there: a dark moustache or beard keeps its weight, blotches fade. */
export const INNER_LINES = 0.35;

// The warp.

/** Superellipse exponent: 2 is the ellipse, larger is squarer; 6 reads as a rounded square. */
export const SQUARENESS = 6;
/**
 * The warp's reach along each ray, in the square's radius: nothing moves inside INNER (eyes, nose and
 * mouth stay where they are), the change is full at the outline and gone again at OUTER (no seam).
 */
export const INNER = 0.45, OUTER = 1.5;
/** The most a ray's radius may be scaled by: corners are filled, features are not blown up. */
export const MAX_SCALE = 1.3;

// The cartoon (cartoon.ts).

/**
 * Defaults for a ~768 px avatar: smoothing passes, their radius (px) and eps (on L/100 scale squared);
 * lightness bands (L 0..100) and how hard their steps are; XDoG's blur sigma (px), ratio, threshold and
 * softness of the lines.
 */
export const CARTOON = { passes: 3, radius: 5, eps: 0.003, levels: 6, sharpness: 3, lineSigma: 1.4, tau: 0.98, epsilon: -0.002, phi: 120 };
/** XDoG's second blur is this many times the first (the usual difference-of-Gaussians ratio). */
export const LINE_SCALE = 1.6;
/** A band step's hardness per unit of `sharpness` (tanh's slope over the band's width). */
export const BAND_HARDNESS = 10;
/** On a line's darkest the lightness keeps this share (lines are dark, not black). */
export const LINE_FLOOR = 0.25;
