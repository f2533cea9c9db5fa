/**
 * Steps of the skin analysis: the largest face (portrait template) → its frame at a fixed mm scale →
 * the quality gates when face_quality_control=1 (scale, then sharpness) → every measure on its parsing
 * and mesh zones → the maps asked for → the answer.
 */
import type endpoint from '../../../contract/endpoints/skin-analysis-advanced.ts';
import type { Params } from '../../../contract/endpoint.ts';
import { CodedError } from '../../../contract/errors.ts';
import type { Step } from '../../pipeline/effect.ts';
import { selectFaces, type PortraitState } from '../../pipeline/portrait.ts';
import { analyseSkin, labFrame, type SkinAnalysis } from './skin/analyse.ts';
import type { LabFrame } from './skin/blobs.ts';
import { FACE_MM, IRIS_MM, makeFrame, type Frame } from './skin/frame.ts';
import { renderMaps, type MapName } from './skin/maps.ts';
import { eyeArea, sharpness } from './skin/sharpness.ts';
import { SKIN_PARSING, zoneGrid } from './skin/zones.ts';
import { parseFaceAt, type FaceParser } from '../../vision/parsing/face-parsing.ts';
import { faceRectangle, skinResult, warnings } from './answer.ts';
import { QUALITY } from './tuning.ts';

export type P = Params<typeof endpoint>;

export interface Framed { frame: Frame; lab: LabFrame }
export interface Analysed { analysis: SkinAnalysis }

export const findFace = selectFaces<P>(() => ({ count: 1, detect: { meshFaces: 1 } }));

export const frameFace: Step<P, PortraitState, Framed> = async (c) => {
  const face = c.state.faces[0];
  if (!face.mesh) throw new CodedError('ERROR_NO_FACE_IN_FILE', 'no face with visible features was found in the image');
  const frame = await makeFrame(c.image, face);
  return { frame, lab: labFrame(frame) };
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
export const measure: Step<P, PortraitState & Framed, Analysed> = async (c, kit) => {
  const face = c.state.faces[0], frame = c.state.frame;
  const parsing = await parseFaceAt(await kit.models.get<FaceParser>('bisenet-face-parsing'), c.image, face, zoneGrid(frame).at, SKIN_PARSING);
  return { analysis: analyseSkin(frame, face, parsing, c.state.lab) };
};

export const maps: Step<P, Analysed> = async (c) => {
  const names = (c.params.return_maps ?? []) as MapName[];
  const rendered = await renderMaps(c.image, c.state.analysis, names);
  for (const [name, img] of Object.entries(rendered)) c.output.images[`map:${name}`] = img;
};

export const answer: Step<P, PortraitState & Analysed> = (c) => {
  const face = c.state.faces[0];
  c.output.data = {
    warning: warnings(face),
    face_rectangle: faceRectangle(face),
    result: skinResult(c.state.analysis, c.params.return_rect_confidence === 1),
  };
};
