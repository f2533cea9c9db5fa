/**
 * Steps of the skin analysis: the largest face with visible features (portrait template; a warning when the
 * photo holds several) → its frame at a fixed mm scale → the quality gates when face_quality_control=1
 * (scale, then sharpness) → every measure on its parsing and mesh zones, skin age anchored on the face's
 * apparent age → the maps asked for → the answer.
 */
import type endpoint from '../../../contract/endpoints/skin-analysis-advanced.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { CodedError } from '../../../contract/errors.ts';
import type { Step } from '../../pipeline/effect.ts';
import { selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { analyseSkin, labFrame, type SkinAnalysis } from './skin/analyse.ts';
import { anchoredSkinAge } from './skin/age.ts';
import { faceAttributes } from '../../vision/attributes/attributes.ts';
import { registryNets } from '../../vision/attributes/attribute-models.ts';
import type { Face } from '../../vision/faces/detect.ts';
import type { LabFrame } from './skin/blobs.ts';
import { FACE_MM, IRIS_MM, makeFrame, type Frame } from './skin/frame.ts';
import { renderMaps, type MapName } from './skin/maps.ts';
import { eyeArea, sharpness } from './skin/sharpness.ts';
import { SKIN_PARSING, zoneGrid } from './skin/zones.ts';
import { parseFaceAt, type FaceParser } from '../../vision/parsing/face-parsing.ts';
import { faceRectangle, skinResult, warnings } from './answer.ts';
import { MESHED_FACES, QUALITY } from './tuning.ts';

export type P = Params<typeof endpoint>;

/** `face`: the face measured, the largest with a mesh; `faceCount`: how many faces the photo holds. */
export interface Framed { face: Face; faceCount: number; frame: Frame; lab: LabFrame }
export interface Analysed { analysis: SkinAnalysis }

/** Every face (largest first), the MESHED_FACES largest with a mesh: the largest may be too blurred or turned for one. */
export const findFace = selectFaces<P>(() => ({ count: Number.MAX_SAFE_INTEGER, detect: { meshFaces: MESHED_FACES } }));

export const frameFace: Step<P, PortraitState, Framed> = async (c) => {
  const face = c.state.faces.find((f) => f.mesh);
  if (!face) throw new CodedError('ERROR_NO_FACE_IN_FILE', 'no face with visible features was found in the image');
  const frame = await makeFrame(c.image, face);
  return { face, faceCount: c.state.faces.length, frame, lab: labFrame(frame) };
};

export const qualityGate: Step<P, Framed> = (c) => {
  if (c.params.face_quality_control !== 1) return;
  const f = c.state.frame;
  if (f.pxPerMm < QUALITY.minPxPerMm) {
    const iris = Math.ceil(QUALITY.minPxPerMm * IRIS_MM), face = Math.ceil(QUALITY.minPxPerMm * FACE_MM);
    throw new CodedError('ERROR_FACE_SIZE_RATIO_NOT_MET',
      `the face is too small to measure skin: ${f.pxPerMm.toFixed(2)} px per mm (iris ${f.irisPx.toFixed(0)} px across); at least ${QUALITY.minPxPerMm} px per mm is needed (iris ${iris} px, face about ${face} px wide)`);
  }
  const sharp = sharpness(c.state.lab.L, f.w, f.h, f.s, eyeArea(f));
  if (sharp < QUALITY.minSharpness) {
    throw new CodedError('ERROR_BLURRY_FACE', `the face is too blurred to measure skin: sharpness ${sharp.toFixed(2)} around the eyes, at least ${QUALITY.minSharpness} is needed`);
  }
};

/** The parsing is brought to image resolution only where the zones read it (zoneGrid; parseFaceAt). */
export const measure: Step<P, Framed, Analysed> = async (c, kit) => {
  const { face, frame } = c.state;
  const parsing = await parseFaceAt(await kit.models.get<FaceParser>('bisenet-face-parsing'), c.image, face, zoneGrid(frame).at, SKIN_PARSING);
  const analysis = analyseSkin(frame, face, parsing, c.state.lab);
  // The apparent age (the face analyzer's estimate, uncapped) anchors the skin age (SKIN_AGE_ANCHOR).
  const [attributes] = await faceAttributes(await kit.models.get('human'), c.image, [face], registryNets(kit.models), new Set(['age'] as const));
  const apparent = attributes.age?.years;
  return { analysis: apparent === undefined ? analysis : { ...analysis, skinAge: anchoredSkinAge(apparent, analysis.skinAge) } };
};

export const maps: Step<P, Analysed> = async (c) => {
  const names = (c.params.return_maps ?? []) as MapName[];
  const rendered = await renderMaps(c.image, c.state.analysis, names);
  for (const [name, img] of Object.entries(rendered)) c.output.images[`map:${name}`] = img;
};

export const answer: Step<P, Framed & Analysed> = (c) => {
  const face = c.state.face;
  c.output.data = {
    warning: warnings(face, c.state.faceCount),
    face_rectangle: faceRectangle(face),
    result: skinResult(c.state.analysis, c.params.return_rect_confidence === 1),
  };
};
