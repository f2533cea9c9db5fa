/**
 * The beard looks' tuning: the mask's (beardTuning, mask.ts) and the removal's (removalTuning,
 * removal.ts). Sizes are in face widths (the mesh's cheek to cheek) unless they say otherwise. Plain
 * objects, so a tuning script may try other values in place.
 */

export const beardTuning = {
  /** The mask's window reaches this many face widths over the mesh's box above (the texture's blurs read there). */
  windowTop: 0.15,
  /** The mesh's lips grown by this many face widths are a wall (a moustache over the lip line reads as lip to the parser) ... */
  lipWall: 0.006,
  /** ... and its nostrils by this many. */
  nostrilWall: 0.008,
  /**
   * The parser's hair inside the zone is the head's hair, not beard, this many face widths past the mouth
   * corners (fully twice as far); between them it is the beard itself.
   */
  mouthSide: 0.05,
  /** The cheeks' reference skin: the parser's skin above `refSkin`, its hair under `refHair`, the zone under `refZone`, at least `refLeast` pixels. */
  refSkin: 0.6,
  refHair: 0.3,
  refZone: 0.15,
  refLeast: 30,
  /** The sigmoids' slopes: texture per log2 of its ratio, darkness per spread, and the greyness's and the darkening's softness. */
  textureGain: 4,
  darkGain: 2,
  greySoft: 0.05,
  dropSoft: 0.03,
  /** The cheeks' saturation under which the photo has no colour to read (grey skin). */
  colourless: 0.03,
  /** Zone weight from which a pixel may seed or grow the mask. */
  zoneFrom: 0.15,
  /** Texture seeds only where the face outline's feather is above this (the jaw's edge is fine-band energy too). */
  seedInner: 0.97,
  /** Skin a fill may copy from keeps this many face widths from the grown zone, and this many from the eyes. */
  skinReach: 0.02,
  eyeHole: 0.05,
  /** Fine band: lightness minus its blur at this many face widths (hairs are 0.2-0.5 % of a face wide). */
  fineSigma: 0.005,
  /** Texture energy pooled over this many face widths. */
  energySigma: 0.012,
  /** Lightness for darkness pooled over this many face widths. */
  toneSigma: 0.01,
  /** The cheeks' tone is spread over the face by a masked blur this many face widths wide. */
  refSigma: 0.15,
  /** Texture: fine-band amplitude over the cheeks' own, log2, at which a pixel counts half textured. */
  texture: 0.6,
  /** Darkness in robust spreads of the cheeks' lightness at which a pixel counts half dark. */
  dark: 1.8,
  /**
   * A cheek whose lightness spreads over this many times the other's is crossed by a shadow's edge (a face
   * lit from one side): the skin's spread is then read on the other cheek alone.
   */
  shadedCheek: 4,
  /** Saturation (C* / (L* + 16)) drop, as a share of the cheeks', at which a pixel counts half grey. */
  grey: 0.25,
  /**
   * How much of the tone's gradient energy counts against the fine band's (edges are not hair), in a photo
   * whose skin high on the face has as much fine energy as edge energy; less in a softer photo, in
   * proportion (a broad gradient barely reaches a soft photo's fine band, while the beard still does).
   */
  edgeWeight: 1,
  /** The edges' gradient is read on the lightness blurred by this many face widths. */
  edgeSigma: 0.03,
  /** Evidence pooled over this many face widths. */
  poolSigma: 0.02,
  /** Pooled evidence that seeds the mask. */
  on: 0.32,
  /** Pooled colour evidence (dark or grey, no texture needed) the mask grows through from its seeds. */
  grown: 0.5,
  /**
   * The parser's face classes (skin, neck, hair, lips) at which the zone starts inside the face's outline
   * (full `sureSpan` above); past the outline it starts `sureSpan` higher (the background beside a turned
   * jaw: skin 0.5).
   */
  sure: 0.35,
  sureSpan: 0.25,
  /** ... and at least this share of the seeds' pooled evidence (colour alone is shading as often as beard). */
  growTexture: 0.5,
  /** Seeds keep about twice this many face widths inside the face's outline. */
  outline: 0.02,
  /** How far past the face's outline (face widths) the zone reaches under the jaw. */
  skirt: 0.06,
  /** Least share of the beard zone the seeds must cover to count as a beard at all. */
  least: 0.05,
  /**
   * Faces narrower than this (pixels) may be seeded by hair's colour alone (fully under three quarters of
   * it): a hair is then under half a pixel, and a dense beard shows no texture.
   */
  smallFace: 160,
  /** Hair's colour: darker than the cheeks by this many spreads ... */
  hairDark: 2,
  /** ... less saturated by this share ... */
  hairGrey: 0.25,
  /** ... and darker by this share of the cheeks' L* + 16. */
  hairDrop: 0.2,
  /** Hair's colour seeds where the face outline's feather (`outline`) is above this (texture: `seedInner`). */
  hairInner: 0.5,
  /** Soft edge, face widths. */
  edge: 0.006,
  /**
   * A beard is dense when this share of it shows no skin between the hairs: nothing for the removal to
   * read the skin's shading from, so the mask becomes one smooth region and the fill a membrane from the
   * skin around it.
   */
  denseAt: 0.5,
  /** A dense beard's region: its seeds grown through colour alone, closed by this many face widths ... */
  denseClose: 0.03,
  /** ... grown by this many ... */
  denseGrow: 0.01,
  /** ... and feathered by this many. */
  denseEdge: 0.012,
  /**
   * A dense beard grows on the jaw's underside too, further past the outline than `skirt` (its lower edge
   * can lie a tenth of a face width under the chin): its region may reach the outline grown by this many face
   * widths (full weight about half as far), through hair-coloured pixels joined to the beard; the jaw's own
   * shadow comes back as the fill's shading, from the beard's broad lightness.
   */
  denseSkirt: 0.2,
  /** The zone reaches this many face widths under the face's outline below the mouth (a beard under the jaw). */
  underJaw: 0.25,
  /**
   * The colour reading (mask.ts colourBeard): a pixel is hair's colour where it is darker than the person's
   * beard-free cheeks under the same light by this much log lightness (ln((L*+16) / (L*ref+16))) ...
   */
  colourDark: 0.25,
  /** ... and less saturated by this share of their saturation, both with this softness ... */
  colourGrey: 0.3,
  colourSoft: 0.05,
  /** The colour reading counts only where its region covers at least this share of the mesh's zone. */
  colourLeast: 0.15,
  /** ... and the evidence smoothed by a guided filter on log lightness, of this many face widths' radius and this eps. */
  colourRadius: 0.015,
  colourEps: 0.01,
};

export const removalTuning = {
  /** Face width (pixels) of the working copy the fill is searched on. */
  workFace: 160,
  /** Patch side of the fill, working pixels. */
  patch: 7,
  /**
   * The hole: the mask above this, grown by `holeGrow` face widths (hair tips past the mask's middle; a
   * narrower growth leaves the beard's own edge standing as a thin light line between the fill and the skin).
   */
  holeAt: 0.15,
  holeGrow: 0.016,
  /** The work is cut to the beard's box grown by this many face widths. */
  context: 0.3,
  /** Source pixels lie within this many robust spreads of the skin's median lightness ... */
  sourceSpread: 2.5,
  /** ... where the bare-skin plane is above this (sure skin, not a hair's edge or a shadow the parsing let in). */
  sourceSkin: 0.8,
  /** Broad tone for evening: masked blur of this many face widths. */
  evenSigma: 0.04,
  /** Skin between the hairs: lighter than the mean over this many face widths around. */
  between: 0.015,
  /** Texture band (copied from the source at full resolution): finer than this many face widths. */
  textureSigma: 0.015,
  /** ... clipped to this many robust spreads of the band over skin above `textureSkin` (an edge's band is no texture). */
  textureClip: 3,
  textureSkin: 0.6,
  /**
   * The fill's own tone is kept only broader than this many face widths: the patches' voting leaves
   * blotches a few millimetres wide (one source patch lighter than the next) that read as a waxy mask;
   * the evening brings the skin's broad tone in, the texture band the grain.
   */
  lowSigma: 0.04,
  /** How far (0..1) the fill's and the rim's broad tone move toward the skin's around them. */
  even: 1,
  /** The mask's soft rim: evening reaches this many face widths past it, fading. */
  rim: 0.02,
  /**
   * Skin seen between the hairs: a lightness closing this many face widths in radius (wider than a hair,
   * narrower than the chin's shading) marks the pixels on its envelope as skin ...
   */
  closeRadius: 0.01,
  /** ... those within this many L* of the envelope, fully ... */
  skinNear: 3,
  /** ... and a masked blur of them this many face widths wide is the hole's low band where they are dense. */
  skinSigma: 0.012,
  /** Where the masked blur's weight is below this, the fill's low band takes over. */
  skinDense: 0.25,
  /** 1: the hole's low band from the skin between the hairs where it shows; 0: the fill's alone. */
  skinLow: 1,
  /** How much less (0..1) the evening moves the pixels where the low band is the skin seen between the hairs. */
  evenSeen: 0.5,
  /**
   * Dense beards: how much of the beard's own broad lightness relief (log(L* + 16) blurred over `shadeSigma`
   * face widths, less its membrane from the hole's rim: the jaw's roll-off, which the skin around cannot
   * tell of) is laid on the membrane of the skin around. The blur is as narrow as the face's own modelling
   * under the beard (a smile's folds beside the mouth, the hollow under the lower lip, the chin's roll-off:
   * 0.02 to 0.03 face widths across) and still several hairs wide; a wider blur flattens them and the
   * shaved face reads as another man's. Laid on the face's fitted light (lightOrder) at half: in full it drew a
   * light ring round the mouth and a bright chin (the beard's own lit tips); without it the face's identity
   * fell (engine similarity on the check half's worst 0.86 at half, 0.68 without).
   */
  shade: 0.5,
  shadeSigma: 0.02,
  /**
   * A dense fill's light inside the face's outline (shading.ts): log(L* + 16) of the bare skin fitted on the
   * mesh's normals by spherical harmonics of this order (0: none, the membrane of the skin around alone),
   * Huber at `lightHuber` (log units), a ridge of `lightRidge` on the terms past the constant.
   */
  lightOrder: 2,
  /**
   * The fill's grain quilted from the person's own plain skin (quilt.ts): patches this many face widths wide
   * (0: none, the exemplar library's grain and the source patches' band instead), the best of `quiltTries`
   * per tile, from patches whose band energy lies within `quiltEnergy` times the skin's median.
   */
  quiltPatch: 0.05,
  quiltTries: 8,
  quiltEnergy: [0.4, 1.6] as [number, number],
  /** The quilted chroma band's share (the skin's own at 1: patch-wide blotches of colour on dark skin). */
  quiltChroma: 0.5,
  /** Quilt sources keep clear of the beard's mask grown by holeGrow (its value there under this). */
  quiltClear: 0.02,
  lightHuber: 0.05,
  lightRidge: 0.01,
  /** The fitted light is kept within these quantiles (and 1 less them) of the skin's it was fitted on. */
  lightRange: 0.1,
  /** How far (0..1) a dense fill under the jaw takes the face skin's colour (a*, b* over L* + 16) rather than its own membrane's. */
  belowHue: 1,
  /** A dense fill's step at the face's outline (the jaw against the neck) is softened over this many face widths. */
  jawEdge: 0.006,
  /**
   * Lips beside a dense beard (lips.ts), each read against itself: its lit lightness is the `lipRef` quantile
   * of its pixels redder than the skin by `lipRed` + 1 a* where `lipShown` of them are (of all its pixels
   * otherwise), its colour their median; a lip pixel darker than that by `lipDark` L* and less red by
   * `lipRed` a* starts to count as hair (fully `lipSpan` L* and a* further) ...
   */
  lipRef: 0.65,
  lipShown: 0.25,
  lipDark: 6,
  lipRed: 1,
  lipSpan: 8,
  /**
   * ... or, on the outline beside the fill, darker than it by `lipDeep` L* whatever its redness (fully
   * `lipSpan` further): a brown moustache is as red as a lip.
   */
  lipDeep: 10,
  /** Within this many face widths of the mouth's opening nothing counts as hair (the lips' meeting line is darker). */
  lipMeeting: 0.008,
  /** Hair past this cover is filled from the same lip's clean pixels, by patches this many face widths wide (3-9 px). */
  lipHole: 0.2,
  lipPatch: 0.02,
  /** ... their fine band (finer than this many face widths) each copied from its own best source pixel, over the patches' vote. */
  lipGrain: 0.006,
  /** Reach of the fill's nearness (a Gaussian's sigma in face widths, 1 px at least). */
  lipEdge: 0.01,
  /** The skin fill is carried this many face widths past the lips' outline (the wall and the fill's stepped edge) ... */
  lipRing: 0.02,
  /** ... and meets the lip over the outline blurred by this many face widths (0.7 px at least). */
  lipSoft: 0.006,
};
