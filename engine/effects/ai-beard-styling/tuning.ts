/**
 * Beard styling's tuning: its parameters, named, with what each controls and its unit. Sizes in face widths
 * are the mesh's cheek to cheek. The 24 presets' shapes (their outlines, strand lengths, layers, curl and
 * body) are presets.ts's; the Poisson solver's sweeps and over-relaxation (poisson.ts) are its numerical
 * method, not the look.
 */

// The edit of one face: what keeps the person's own pixels.

/** The template photo's parsing input side (its beard is found once, on one face). */
export const TEMPLATE_PARSE_INPUT = 384;
/** The chin's middle on the canonical face (u, v): a part over it is one mass with the chin. */
export const CHIN_MIDDLE = [0.5, 0.92] as const;
/** A part with a body this opaque is dense hair (every style but stubble, whose body is 0.22-0.25). */
export const DENSE_BODY = 0.5;
/** Hat probability from which the beard gives way, and from which it is gone. */
export const OCCLUDE_FROM = 0.3;
export const OCCLUDE_TO = 0.6;
/** The parsing's soft lip edge taken as lip from half confidence: a softer edge left a band of half-drawn hair on the lip. */
export const LIP_GAIN = 2;
/**
 * Background probability from which the photo's own pixels start to come back, and from which all of them
 * do: low, as the parsing's background fades in slowly past a turned face's silhouette (0.25 at the lip's
 * edge, 0.5 a twentieth of the face's width beyond it).
 */
export const BACK_FROM = 0.2;
export const BACK_TO = 0.5;
/** The guided filter's window radius in face widths, and its damping (luma 0..1 squared). */
export const SNAP_RADIUS = 0.03;
export const SNAP_EPS = 0.002;
/** The far side's ramp past the nose-chin line, face widths. */
export const FAR_SIDE = [0.04, 0.14] as const;
/** ... and past the face's middle in canonical u (the mouth corner sits 0.118 out), above the chin (v). */
export const FAR_U = [0.08, 0.14] as const;
export const FAR_V = [0.8, 0.9] as const;

// The preset's parts on the face.

/** The mesh's skirt reaches this far past the outline (uv-map.ts), so beards can hang to v about 1.2. */
export const BEARD_SKIRT = 0.6;
/**
 * A turned face's far side: from FAR_YAW[0] degrees of yaw to FAR_YAW[1], the skirt's sideways reach past
 * its jaw is cut by up to FAR_CUT (its reach down, under the jaw, is kept). The skirt runs out from the
 * outline's centre, which on the far side points past the silhouette into the backdrop, where a beard's part
 * beyond the jaw then hung beside the face; a real beard there stands out from the jaw by its own thickness,
 * seen edge on, so its outline follows the visible jaw. steps.ts clips the far side to the person from the
 * same yaw. Under 15 degrees the far jaw shows almost as a frontal one does.
 */
export const FAR_YAW = [15, 35] as const;
export const FAR_CUT = 0.85;
/** How far a moustache may hang over the upper lip, canonical units (the lip is about 0.04 tall). */
export const LIP_OVERHANG = 0.016;

// The beard's colour and light.

/** The photo's broad light over the beard: its luma blurred over this many face widths (lightPlane). */
export const LIGHT_SIGMA = 0.03;
/** The light under the chin, away from any skin, relative to the face's skin (necks are shadowed by the jaw). */
export const NECK = 0.8;
/** Parsing probability (0..255) a pixel needs to count for a class. */
export const CLASS_SURE = 160;
/** A dark brown for a face whose hair and brows cannot be seen (hat, glasses over the brows). */
export const FALLBACK: [number, number, number] = [58, 44, 36];
/**
 * Mask value a pixel needs to count as the own beard, and the luma band read (its darker part: the mask
 * holds skin between the hairs), at least OWN_LEAST face widths² of it.
 */
export const OWN_SURE = 0.5;
export const OWN_BAND = [0.03, 0.35] as const;
export const OWN_LEAST = 0.004;
/** The own beard's share of the colour, reached from OWN_HIDDEN of its hair hiding the skin (a sparse stubble's skin weighs less). */
export const OWN_SHARE = 0.8;
export const OWN_HIDDEN = 0.5;
/** The own beard counts fully at 0.2 below this lightness relative to the skin's, not at all from it. */
export const OWN_DARK = 0.7;
/** The lightness, relative to the skin's, a fully grey or white beard is drawn at. */
export const GREY_LUMA = 1.12;
/** The lightest a beard's colour is drawn (its strands' highlights go above it). */
export const WHITE_MAX = 235;

// The hair's kind by the preset's strands.

/** Strands shorter than this (face widths) are stubble: short hair over skin (STUBBLE_COVER), the stubble exemplar. */
export const STUBBLE_LENGTH = 0.015;

// The photo's look: blur and grain the drawn hair takes.

/** The two scales (px) whose gradients are compared, and the share of the area's strongest edges read. */
export const BLUR_FINE = 0.7;
export const BLUR_COARSE = 2;
export const BLUR_TOP = 0.03;
/** What edgeBlur reads on a pixel-sharp step (and, in quadrature, over any blur up to 2 px: 0.55-0.59). */
export const BLUR_OWN = 0.57;
/** The scale (px) below which detail counts as grain. */
export const GRAIN_SIGMA = 1;
/** The blur (px) the drawn strands have of their own (anti-aliased to the pixel), as edgeBlur reads it. */
export const DRAWN_BLUR = 0.3;
/**
 * The least blur a photo's pixels are taken to have: a sharpened photo's overshoot reads as no blur at
 * all, yet no camera's pixel is sharper than its lens and demosaicing (at 0 a small face's strands were
 * single-pixel specks, salt and pepper).
 */
export const CAMERA_BLUR = 0.6;

// A template photo's beard carried over.

/** The most the blend may change the template's beard tone, in natural log units (0.5: a factor of 1.65). */
export const TEMPLATE_MAX_TONE = 0.5;
/** Added before taking logs, so black stays finite. */
export const TEMPLATE_LOG_FLOOR = 4;
/** How far the blend reaches past the beard onto skin, in face widths. */
export const TEMPLATE_GROW = 0.025;
/** Fine-detail contrast, in multiples of the forehead skin's, from which a place starts to count as hair. */
export const TEMPLATE_ROUGH = 1.8;
/** Half the thickness, in face widths, below which a band of hair-like texture is not taken for a beard. */
export const TEMPLATE_OPEN = 0.025;
/**
 * A beard smaller than this share of the face width squared is no beard: a bare face's jaw line or shadow
 * and a moustache alone stay under it, full beards far over it
 * (docs/experiments/ai-beard-styling.md#a-templates-beard-covers-at-least-012-of-the-face-width-squared).
 */
export const TEMPLATE_MIN_AREA = 0.12;

// A real beard (exemplar.ts, render.ts).

/** How far a soft border's coverage follows the texture (dark strands keep it, light gaps lose it), per unit of spread. */
export const EDGE_HAIR = 0.8;
/**
 * The beard's lightness spread (Lab L units) over its strands and gaps: this share of its colour's L, at
 * least the first (black hair's sheen) and at most the second.
 */
export const HAIR_CONTRAST = 0.22;
export const HAIR_SPREAD = [5, 20] as const;
/** A grey target's spread a share larger again (white hairs over dark gaps). */
export const GREY_CONTRAST = 0;
/** The texture's dark side compressed toward this many spreads: on a dark beard, and on a fully grey one (render.ts). */
export const GAP_KNEE = [3, 1] as const;
/** The exemplar's chroma spread kept (the rest of its reddish or bluish variation is the light's, not the hair's). */
export const TONE_CHROMA = 0.6;
/**
 * A beard's density thins over this many face widths inside its outline, full from EDGE_FULL of its
 * coverage blurred that far (steps.ts drawPreset): sparse hairs over skin at the edge, not a drawn outline.
 */
export const EDGE_THIN = 0.04;
export const EDGE_FULL = 0.9;
/** EDGE_HAIR for stubble: how far its coverage follows its texture (its hairs a grain over the skin, not strands on bare skin). */
export const STUBBLE_HAIR = 1;
/** The share of the photo a stubble preset's texture replaces (short hair over skin). */
export const STUBBLE_COVER = 0.45;
/** A moustache part's coverage times this (capped at 1): at 1, Obama's handlebar moved fewer pixels than half his lips'. */
export const MOUSTACHE_GAIN = 1.8;
