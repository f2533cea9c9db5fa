/**
 * Skin analysis (advanced): the largest face with visible features → a frame at a fixed mm scale from the iris → quality gates
 * when asked → skin colour, type, lines, eyelids, eye bags, dark circles, pores, blackheads, lesions and
 * skin age (anchored on the face's apparent age) measured in mesh and parsing zones → the maps asked for → the answer.
 */
import { defineEffect, steps } from '../../pipeline/effect.ts';
import { answer, findFace, frameFace, maps, measure, qualityGate, type P } from './steps.ts';

export default defineEffect({
  slug: 'skin-analysis-advanced',
  models: ['human', 'bisenet-face-parsing', 'face-api'],
  steps: steps<P>().step(findFace).step(frameFace).step(qualityGate).step(measure).step(maps).step(answer),
});
