import { describe, expect, it } from 'vitest';
import type { Face } from '../vision/faces/detect.ts';
import { chooseFaces } from './portrait.ts';

const face = (x: number, y: number, side: number): Face => ({ box: { x0: x, y0: y, w: side, h: side }, score: 0.9, rotation: 0 });
// Largest first, as detectFaces answers.
const faces = [face(0, 0, 300), face(400, 0, 200), face(700, 0, 100)];

describe('chooseFaces', () => {
  it('takes the N largest, at least one', () => {
    expect(chooseFaces(faces, {})).toEqual([faces[0]]);
    expect(chooseFaces(faces, { count: 2 })).toEqual(faces.slice(0, 2));
    expect(chooseFaces(faces, { count: 120 })).toEqual(faces);
    expect(chooseFaces(faces, { count: 0 })).toEqual([faces[0]]);
  });

  it('takes the face a rectangle overlaps most, whatever its size, and none when it overlaps none', () => {
    expect(chooseFaces(faces, { rect: { x: 690, y: 10, width: 120, height: 80 } })).toEqual([faces[2]]);
    expect(chooseFaces(faces, { rect: { x: 280, y: 0, width: 200, height: 100 } })).toEqual([faces[1]]);
    expect(chooseFaces(faces, { rect: { x: 0, y: 500, width: 50, height: 50 } })).toEqual([]);
  });
});
