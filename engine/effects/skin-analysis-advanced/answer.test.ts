import { describe, expect, it } from 'vitest';
import type { Face } from '../../vision/faces/detect.ts';
import { faceRectangle, warnings } from './answer.ts';

const face = (pose: Face['pose']): Face => ({ box: { x0: 10.4, y0: 20.6, w: 100.2, h: 120.5 }, score: 0.9, pose, rotation: 0 });

describe('skin-analysis answer', () => {
  it('warns "imporper_headpose" only past 45 degrees of roll, yaw or pitch', () => {
    expect(warnings(face({ yaw: 44, pitch: -30, roll: 10 }))).toEqual([]);
    expect(warnings(face({ yaw: -46, pitch: 0, roll: 0 }))).toEqual(['imporper_headpose']);
    expect(warnings(face({ yaw: 0, pitch: 50, roll: 0 }))).toEqual(['imporper_headpose']);
    expect(warnings(face({ yaw: 0, pitch: 0, roll: -60 }))).toEqual(['imporper_headpose']);
  });
  it('gives the face rectangle as integers top, left, width, height', () => {
    expect(faceRectangle(face(undefined))).toEqual({ top: 21, left: 10, width: 100, height: 121 });
  });
});
