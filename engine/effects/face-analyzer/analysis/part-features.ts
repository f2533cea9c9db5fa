/** The measures behind the part attributes, as part-measures.ts gives them to part-attributes.ts. */

export type Lab = [number, number, number];

export interface PartFeatures {
  /** Mean glasses probability over a band across both eyes (brow to cheek top, outer corner to outer corner). */
  glassBand: number;
  /** Mean glasses probability inside the mesh's eye openings (a clear lens lets the parser see the eye). */
  lensGlass: number;
  /** Mean eye-class probability inside the mesh's eye openings (the iris and white seen). */
  eyeSeen: number;
  /** L* of the eye openings minus L* of the skin (median of each): a dark lens is far below skin. */
  lensDark: number;
  /** L* of what the parser calls glasses around the eyes (not the openings) minus skin L*: a clear lens shows skin, a dark one its tint (NaN without glasses). */
  lensShade: number;
  /** P90 - P10 of L* inside the eye openings: the eye's white beside the iris seen (low behind a dark lens). */
  eyeSpread: number;
  /** Mean hat probability over a cap above the forehead top (1 face width across, 0.45 high). */
  hatTop: number;
  /** Mean hat probability beside the face at ear level (a helmet covers the ears, a hat does not). */
  hatEars: number;
  /** Hat pixels' width at their widest over the face width (a brim sticks out). */
  hatWidth: number;
  /** Share of the hat's pixels that are near-white highlights (L* > 85, chroma < 15): a glossy shell. */
  hatGloss: number;
  /** Shares of the hat's pixels by colour bin: red(+orange), yellow, blue, black, grey/white, other. */
  hatColours: number[];
  /** Share of the mesh nose / lips / chin regions that is neither skin, nose, lips nor mouth to the parser and far from skin in colour. */
  coverNose: number; coverMouth: number; coverChin: number;
  /** log(luma of bare skin (forehead, nose) / luma of the upper-lip band (mesh moustache region, lips and nostrils left out)): a moustache is darker. */
  lipBandShade: number;
  /** log(grain of the upper-lip band / grain of bare skin), grain as grainAt() at 1/45 face width: hair is grainy, shadow smooth. */
  lipBandGrain: number;
  /** L* of cheek skin minus L* of the chin and jaw below the lips (mesh beard region). */
  chinDark: number;
  /** Hair (hair mask, else the parser's hair) at the bottom: its 97th-percentile depth below the chin, in face widths. */
  hairBelowChin: number;
  /** Hair area over the face width squared. */
  hairArea: number;
  /** Mean hair over a cap above the forehead top; mean parser skin there (a bald crown). */
  crownHair: number; crownSkin: number;
  /** Mean hair beside the face from ear level to the chin. */
  sideHair: number;
  /** Mean parser hair over the mesh forehead (a fringe covers it). */
  fringe: number;
  /** L* of the lit hair: the 90th percentile over the surest hair pixels (NaN when there are too few). */
  hairLit: number;
  /** Median chroma (C*ab) of the lighter half of those pixels. */
  hairTint: number;
  /** Median L*a*b* of cheek and forehead skin. */
  skinLab: Lab;
  /** Skin evenness: median absolute deviation of L* over cheek and forehead skin. */
  skinSpread: number;
  /** Mean mirror mismatch of the 3D mesh (pairs across the midline), in face widths. */
  asymmetry: number;
  /** Eye distance, mouth width, nose width over face width; face length over width. */
  proportions: [number, number, number, number];
}
