/** A beard's surface on a turned face: past the jaw on the far side it hugs the jaw; elsewhere it is the face's own skirt. */
import { describe, expect, it } from 'vitest';
import { FACE_OVAL } from '../../vision/faces/landmarks.ts';
import { poseFromMesh } from '../../vision/faces/pose.ts';
import { faceMeshTables } from '../../vision/models/human.ts';
import { faceSurface, type P3 } from '../../vision/regions/uv-map.ts';
import { beardSurface } from './shape.ts';
import { BEARD_SKIRT } from './tuning.ts';
import { farSide } from './steps.ts';
import type { Face } from '../../vision/faces/detect.ts';

/** The canonical face wrapped on an upright cylinder, turned by `turn` radians (positive: toward the image's right). */
function cylinder(turn: number): P3[] {
  const m: P3[] = faceMeshTables().uv.map(([u, v]) => {
    const a = (u - 0.5) * 0.9 * Math.PI + turn;
    return [320 + 220 * Math.sin(a), 60 + 440 * v, -220 * Math.cos(a)];
  });
  while (m.length < 478) m.push([...m[m.length < 473 ? 159 : 386]] as P3);
  return m;
}

/** Each outline point's skirt reach across the face (x) and down it (y), by the point's canonical u. */
function reach(s: ReturnType<typeof faceSurface>, mesh: readonly P3[]) {
  const { uv } = faceMeshTables(), base = s.xy.length - FACE_OVAL.length;
  return FACE_OVAL.map((i, k) => ({ u: uv[i][0], v: uv[i][1], x: Math.abs(s.xy[base + k][0] - mesh[i][0]), y: s.xy[base + k][1] - mesh[i][1] }));
}

describe('beardSurface', () => {
  it('is the face\'s own skirt on a frontal face', () => {
    const mesh = cylinder(0);
    expect(beardSurface(mesh).xy).toEqual(faceSurface(mesh, BEARD_SKIRT).xy);
  });

  it('cuts the skirt\'s sideways reach on a turned face\'s far side, keeping its reach down and the near side', () => {
    const mesh = cylinder(0.7);
    expect(poseFromMesh(mesh).yaw).toBeGreaterThan(35);
    const plain = reach(faceSurface(mesh, BEARD_SKIRT), mesh), cut = reach(beardSurface(mesh), mesh);
    let farPts = 0;
    plain.forEach((p, k) => {
      const c = cut[k];
      if (p.v < 0.5) return;
      // yaw > 0: the far side is the subject's left, u > 0.5.
      if (p.u > 0.7) {
        farPts++;
        expect(c.x).toBeLessThan(0.3 * p.x + 1e-6);
        expect(c.y).toBeCloseTo(p.y, 1);
      } else if (p.u < 0.5) expect(c).toEqual(p);
    });
    expect(farPts).toBeGreaterThan(3);
  });
});

describe('farSide', () => {
  const face = (mesh: P3[]): Face => ({ box: { x0: 0, y0: 0, w: 640, h: 600 }, score: 1, rotation: 0, mesh: mesh as Face['mesh'] });
  const win = { x0: 0, y0: 0, w: 640, h: 600 }, faceWidth = 300;

  it('is nothing on a frontal face', () => {
    expect(farSide(face(cylinder(0)), { win, faceWidth })).toBeNull();
  });

  it('on a turned face, is the far side beyond the nose-chin line only: not the chin, not the near side', () => {
    const mesh = cylinder(0.7), far = farSide(face(mesh), { win, faceWidth })!;
    const at = (dx: number) => far[Math.round(mesh[152][1] - 20) * win.w + Math.round(mesh[152][0] + dx * faceWidth)];
    expect(at(0)).toBe(0);
    expect(at(-0.3)).toBe(0);
    expect(at(0.3)).toBe(1);
    expect(at(0.09)).toBeGreaterThan(0);
    expect(at(0.09)).toBeLessThan(1);
  });

  it('given the mesh\'s uv, also takes the far cheek beside the mouth that lies on the nose-chin line, never the chin', () => {
    const mesh = cylinder(0.7);
    // A uv field that puts the far cheek (u 0.7, mouth height) on the nose-chin line's pixels above the
    // chin, and the chin (v 0.95) on those below it.
    const u = new Float32Array(win.w * win.h).fill(NaN), v = new Float32Array(win.w * win.h).fill(NaN);
    const x = Math.round(mesh[152][0]), cheekY = Math.round(mesh[152][1] - 80), chinY = Math.round(mesh[152][1] - 20);
    u[cheekY * win.w + x] = 0.7; v[cheekY * win.w + x] = 0.7;
    u[chinY * win.w + x] = 0.7; v[chinY * win.w + x] = 0.95;
    const plain = farSide(face(mesh), { win, faceWidth })!, withUv = farSide(face(mesh), { win, faceWidth, field: { u, v, win } })!;
    expect(plain[cheekY * win.w + x]).toBe(0);
    expect(withUv[cheekY * win.w + x]).toBe(1);
    expect(withUv[chinY * win.w + x]).toBe(0);
    // The near side's cheek stays.
    u[cheekY * win.w + x] = 0.3;
    expect(farSide(face(mesh), { win, faceWidth, field: { u, v, win } })![cheekY * win.w + x]).toBe(0);
  });
});
