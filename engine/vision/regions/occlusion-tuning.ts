/**
 * The occlusion mask's parameters (occlusion.ts). Lengths are in face widths (mesh 234 to 454); colour
 * spreads in CIELAB units or in multiples of the skin's own spread (z). Fitted on the fit half of the occluded
 * photos (scripts/quality/occlusion.ts), judged on the check half.
 */
export const OCCLUSION = {
  /** The parse's input side: the classes are read as sure or not, not traced to the pixel. */
  parseInput: 320,
  /** A class counts where its probability is above this. */
  sure: 0.5,
  /** Eyes, lips, brows the parser sees explain a pixel's colour above this. */
  partSure: 0.4,
  /** Skin over the mesh's eye or lips core (a finger) counts above this. */
  skinOverPart: 0.8,
  /** The inner face: the mesh oval shrunk by this (background past the cheek is behind the face, not in front). */
  innerMargin: 0.04,
  /** Below the oval, the beard area grown by this: where beard styling and removal may still edit. */
  beardReach: 0.12,
  /** Colour decides in the oval shrunk by this only (its outline mixes face and background). */
  colourMargin: 0.015,
  /** The core of the mesh's eyes and lips, shrunk by this: their borders are where mesh and parser disagree anyway. */
  coreMargin: 0.015,
  /** A part the parser sees counts within this of where the mesh puts it. */
  partSlack: 0.03,
  /** Eyes and brows grown by this: colour does not decide there. */
  eyeZone: 0.04,
  skin: {
    /** Only pixels the parser is this sure are skin make the skin's colour. */
    sure: 0.8,
    floorL: 6, floorAB: 2.5,
  },
  /** A finger over the lips or eyes: within this many spreads of the skin's chroma and lightness. */
  finger: { chromaZ: 2, lightZ: 2 },
  colour: {
    /** Grey or black things: chroma under this share of the skin's; in the beard area, under the lower one. */
    grey: 0.5, greyInBeard: 0.2,
    /** A darker hand: this many spreads darker than the skin (more in the beard area, where a brown beard is
     * skin-hued and dark too), with at least this share of its chroma. */
    darkerZ: 3.5, darkerInBeardZ: 5, handChroma: 0.7,
  },
  /** Opening radius, closing radius, least island (in face widths squared), growth over the occluder's edge. */
  open: 0.008, close: 0.02, minIsland: 0.004, grow: 0.01,
  /** How far from what the cues found its own colour may add to it. */
  reach: 0.06,
  /** In the beard area the occluder's colour must explain a pixel this much better than the skin's (a dark beard is nearer a dark object than skin is). */
  beardGrowth: 0.5,
} as const;
