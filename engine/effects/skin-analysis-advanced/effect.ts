/**
 * Skin analysis (advanced): the largest face → a frame at a fixed mm scale from the iris → quality gates
 * when asked → skin colour, type, lines, eyelids, eye bags, dark circles, pores, blackheads, lesions and
 * skin age measured in mesh and parsing zones → the maps asked for → the answer.
 */
import { defineEffect } from '../../pipeline/effect.ts';
import { answer, findFace, frameFace, maps, measure, qualityGate, type P, type State } from './steps.ts';

export default defineEffect<P, State>({
  slug: 'skin-analysis-advanced',
  models: ['human', 'bisenet-face-parsing'],
  steps: [findFace, frameFace, qualityGate, measure, maps, answer],
});
