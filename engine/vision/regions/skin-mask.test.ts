import { describe, expect, it } from 'vitest';
import type { Face } from '../faces/detect.ts';
import { faceMeshTables } from '../models/human.ts';
import type { FaceParsing } from '../parsing/face-parsing.ts';
import { convexHull, meshFaceWidth, retouchMasks, retouchWindow, spareLowerFace } from './skin-mask.ts';

describe('convexHull', () => {
  it('keeps the corners and drops the inner and collinear points', () => {
    const hull = convexHull([[0, 0], [4, 0], [2, 0], [4, 4], [0, 4], [2, 2], [1, 3]]);
    expect(hull.map((p) => p.join(',')).sort()).toEqual(['0,0', '0,4', '4,0', '4,4']);
  });
});

/**
 * A face `side` px across at (cx, cy): the mesh's canonical layout scaled (iris points at the eyes'
 * centres, unused here), and a parsing whose skin is a hard-edged ellipse over it, nothing else.
 */
function syntheticFace(side: number, cx: number, cy: number, size: { width: number; height: number }): { face: Face; parsing: FaceParsing } {
  const uv = faceMeshTables().uv;
  const mesh = uv.map(([u, v]) => [cx + (u - 0.5) * side, cy + (v - 0.5) * side, 0] as [number, number, number]);
  while (mesh.length < 478) mesh.push([...mesh[1]] as [number, number, number]);
  const face: Face = { box: { x0: cx - side / 2, y0: cy - side / 2, w: side, h: side }, score: 1, mesh, rotation: 0 };
  const win = { x0: 0, y0: 0, w: size.width, h: size.height };
  const skin = new Uint8Array(win.w * win.h);
  const rx = meshFaceWidth(mesh) / 2, ry = 0.6 * side;
  for (let y = 0; y < win.h; y++) for (let x = 0; x < win.w; x++) if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1) skin[y * win.w + x] = 255;
  const parsing: FaceParsing = { roi: { cx, cy, size: 2 * side, angle: 0 } as FaceParsing['roi'], win, classes: { skin }, ms: { model: 0, warp: 0 } };
  return { face, parsing };
}

/** The largest difference between horizontal or vertical neighbours of a plane. */
function largestStep(p: Float32Array, w: number, h: number): number {
  let m = 0;
  for (let y = 0; y < h - 1; y++) for (let x = 0; x < w - 1; x++) {
    const i = y * w + x;
    m = Math.max(m, Math.abs(p[i + 1] - p[i]), Math.abs(p[i + w] - p[i]));
  }
  return m;
}

describe('retouchMasks', () => {
  it("softens the tone mask's edge over pixels on a small face, where the feather in face widths is under one", () => {
    const size = { width: 160, height: 160 };
    const { face, parsing } = syntheticFace(64, 80, 80, size);
    const win = retouchWindow(face, size)!;
    const m = retouchMasks(face, parsing, win);
    expect(m.faceWidth).toBeLessThan(100);
    // A hard-edged lift would step from 0 to 1 between two pixels; a 1.5 px edge spreads it over several.
    expect(largestStep(m.tone, win.w, win.h)).toBeLessThan(0.4);
    // The smoothing mask keeps the parsing's edge (its feather is in face widths only).
    expect(largestStep(m.skin, win.w, win.h)).toBeGreaterThan(0.9);
    // Inside, the skin takes the whole lift.
    expect(m.tone[(80 - win.y0) * win.w + Math.round(80 - win.x0 - 0.3 * m.faceWidth)]).toBeCloseTo(1, 2);
  });
});

describe('spareLowerFace', () => {
  it('takes the chin and the folds beside the mouth out of the skin mask by the share, and leaves the upper face', () => {
    const size = { width: 160, height: 160 };
    const { face, parsing } = syntheticFace(64, 80, 80, size);
    const win = retouchWindow(face, size)!;
    const full = retouchMasks(face, parsing, win), none = retouchMasks(face, parsing, win), half = retouchMasks(face, parsing, win);
    spareLowerFace(none, face, 0);
    spareLowerFace(half, face, 0.5);
    const at = (p: readonly number[]) => Math.round(p[1] - win.y0) * win.w + Math.round(p[0] - win.x0);
    const m = face.mesh!;
    // The chin (152 is its lowest point; a little above it) and beside the mouth corner (61), toward the cheek.
    const chin = at([m[152][0], m[152][1] - 0.06 * full.faceWidth]), fold = at([m[61][0] - 0.06 * full.faceWidth, m[61][1]]);
    for (const i of [chin, fold]) {
      expect(full.skin[i]).toBeGreaterThan(0.9);
      expect(none.skin[i]).toBeLessThan(0.1 * full.skin[i]);
      expect(half.skin[i]).toBeGreaterThan(0.4 * full.skin[i]);
      expect(half.skin[i]).toBeLessThan(0.8 * full.skin[i]);
    }
    // The forehead (10 is its top middle; a little below) and the upper cheek beside the nose are untouched.
    for (const i of [at([m[10][0], m[10][1] + 0.1 * full.faceWidth]), at([m[205][0], m[205][1] - 0.08 * full.faceWidth])]) {
      expect(full.skin[i]).toBeGreaterThan(0.5);
      expect(none.skin[i]).toBe(full.skin[i]);
    }
    // Share 1 changes nothing.
    const same = retouchMasks(face, parsing, win);
    spareLowerFace(same, face, 1);
    expect(same.skin).toEqual(full.skin);
  });
});
