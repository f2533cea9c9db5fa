import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../../image/raster.ts';
import { ModelRegistry } from '../../../vision/models/registry.ts';
import { detectFaces, type Face } from '../../../vision/faces/detect.ts';
import { decide, geometryAttributes, geometryFeatures, type GeometryAttributes } from './geometry-attributes.ts';
import { measureGeometry } from './geometry-measures.ts';
import { IRIS_REFINES, LEFT_BROW, LIPS_LOWER_INNER, LIPS_UPPER_INNER, RIGHT_BROW } from '../../../vision/faces/landmarks.ts';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));
const load = async (name: string): Promise<RasterImage> => {
  const { data, info } = await sharp(path.join(fixtures, name)).rotate().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
};

type Mesh = [number, number, number][];
const withMesh = (face: Face, edit: (m: Mesh) => void): Face => {
  const mesh = face.mesh!.map((p) => [...p] as [number, number, number]);
  edit(mesh);
  return { ...face, mesh };
};
const faceWidth = (m: Mesh) => Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1], m[454][2] - m[234][2]);

/** Every coded member present, its type a valid code and its probability in [0, 1]. */
function expectWellFormed(a: GeometryAttributes) {
  const coded: [{ type: number; probability: number }, number][] = [
    [a.eye.eye_open, 2], [a.eye.eyelid_type, 2], [a.eye.eye_size, 3], [a.eyebrow.eyebrow_density, 2], [a.eyebrow.eyebrow_curve, 2],
    [a.eyebrow.eyebrow_length, 2], [a.mouth.mouth_open, 2], [a.nose, 4], [a.shape, 5],
  ];
  for (const [c, n] of coded) {
    expect(Number.isInteger(c.type) && c.type >= 0 && c.type < n).toBe(true);
    expect(c.probability).toBeGreaterThanOrEqual(n === 2 ? 0.5 : 1 / n);
    expect(c.probability).toBeLessThanOrEqual(1);
  }
  expect(Number.isInteger(a.smile) && a.smile >= 0 && a.smile <= 100).toBe(true);
}

let obama: RasterImage, astronaut: RasterImage, turned: RasterImage;
let obamaFace: Face, astronautFace: Face, turnedFace: Face;

beforeAll(async () => {
  const human = await new ModelRegistry().get('human');
  [obama, astronaut, turned] = await Promise.all([load('obama_official_portrait.jpg'), load('astronaut_eileen_collins.png'), load('astronaut_rot90cw.png')]);
  [obamaFace] = await detectFaces(human, obama);
  [astronautFace] = await detectFaces(human, astronaut);
  [turnedFace] = await detectFaces(human, turned, { searchRotations: true });
});

describe('geometryAttributes on real portraits', () => {
  it('Obama: smiling, eyes open (narrowed by the smile, so not sure), teeth showing, thick dark brows, frontal', () => {
    const a = geometryAttributes(obamaFace, obama)!;
    expectWellFormed(a);
    expect(a.smile).toBeGreaterThanOrEqual(80);
    expect(a.eye.eye_open.type).toBe(0);
    // Lips apart over the teeth: "open" as the by-eye labels define it.
    expect(a.mouth.mouth_open).toMatchObject({ type: 1 });
    expect(a.mouth.mouth_open.probability).toBeGreaterThan(0.8);
    expect(a.eyebrow.eyebrow_density).toMatchObject({ type: 1 });
    expect(a.eyebrow.eyebrow_density.probability).toBeGreaterThan(0.8);
    expect(Math.abs(a.head_pose.yaw)).toBeLessThan(12);
    expect(Math.abs(a.head_pose.pitch)).toBeLessThan(12);
    expect(Math.abs(a.head_pose.roll)).toBeLessThan(5);
  });

  it('Eileen Collins: smiling, eyes clearly open, regular eyes', () => {
    const a = geometryAttributes(astronautFace, astronaut)!;
    expectWellFormed(a);
    expect(a.smile).toBeGreaterThanOrEqual(80);
    expect(a.eye.eye_open).toMatchObject({ type: 0 });
    expect(a.eye.eye_open.probability).toBeGreaterThan(0.9);
    expect(a.eye.eye_size.type).toBe(1);
    expect(Math.abs(a.head_pose.yaw)).toBeLessThan(12);
  });

  it('the same face turned 90 degrees gives the same answers (measures are taken in the face frame)', () => {
    const up = geometryAttributes(astronautFace, astronaut)!, side = geometryAttributes(turnedFace, turned)!;
    expect(Math.abs(side.head_pose.roll - 90)).toBeLessThan(10);
    expect(side.eye.eye_open.type).toBe(up.eye.eye_open.type);
    expect(side.mouth.mouth_open.type).toBe(up.mouth.mouth_open.type);
    expect(side.eyebrow.eyebrow_density.type).toBe(up.eyebrow.eyebrow_density.type);
    expect(Math.abs(side.smile - up.smile)).toBeLessThanOrEqual(5);
    const fu = geometryFeatures(measureGeometry(astronautFace, astronaut)!), fs = geometryFeatures(measureGeometry(turnedFace, turned)!);
    expect(fs.eyeOpen).toBeCloseTo(fu.eyeOpen, 1);
    expect(fs.mouthGap).toBeCloseTo(fu.mouthGap, 1);
    expect(Math.abs(fs.browContrast - fu.browContrast)).toBeLessThan(0.1);
  });

  it('a face without a mesh has no geometry attributes', () => {
    expect(geometryAttributes({ ...obamaFace, mesh: undefined }, obama)).toBeNull();
  });
});

describe('geometry measures are pose- and size-free', () => {
  it('a rigid 3D turn (yaw 25, pitch -15, roll 30 degrees), doubling and shifting the mesh leave the mesh measures unchanged', () => {
    const rad = Math.PI / 180;
    const [cy, sy, cp, sp, cr, sr] = [Math.cos(25 * rad), Math.sin(25 * rad), Math.cos(-15 * rad), Math.sin(-15 * rad), Math.cos(30 * rad), Math.sin(30 * rad)];
    const moved = withMesh(obamaFace, (m) => {
      const c = m[168].slice() as number[];
      for (const p of m) {
        let [x, y, z] = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
        [x, z] = [cy * x + sy * z, -sy * x + cy * z];
        [y, z] = [cp * y - sp * z, sp * y + cp * z];
        [x, y] = [cr * x - sr * y, sr * x + cr * y];
        p[0] = 2 * x + 300; p[1] = 2 * y - 50; p[2] = 2 * z;
      }
    });
    const a = measureGeometry(obamaFace)!, b = measureGeometry(moved)!;
    // Per side (pooling the two eyes weighs them by how wide each looks in the photo, which a turn changes on purpose).
    for (const side of ['right', 'left'] as const) {
      for (const k of ['openness', 'width', 'area'] as const) expect(b.eyes[side][k]).toBeCloseTo(a.eyes[side][k], 6);
      for (const k of ['meshArch', 'meshLength'] as const) expect(b.brows[side][k]).toBeCloseTo(a.brows[side][k], 6);
    }
    for (const group of ['mouth', 'nose', 'shape'] as const) {
      for (const [k, v] of Object.entries(a[group])) expect((b[group] as Record<string, number>)[k]).toBeCloseTo(v, 6);
    }
  });
});

describe('rules on both sides of their thresholds (synthetic mesh edits)', () => {
  /** Moves each upper-lid point (iris-refined contour) toward the lower lid point below it by `t` (1: onto it). */
  const lids = (t: number) => (m: Mesh) => {
    for (const side of [IRIS_REFINES.right, IRIS_REFINES.left]) {
      for (const u of side.upper0) {
        const l = side.lower0.reduce((best, i) => (Math.abs(m[i][0] - m[u][0]) < Math.abs(m[best][0] - m[u][0]) ? i : best));
        for (let k = 0; k < 3; k++) m[u][k] += (m[l][k] - m[u][k]) * t;
      }
    }
  };

  it('eyes: lids brought together read as closed, the portrait as open, lids raised as open and large', () => {
    const base = geometryAttributes(astronautFace, astronaut)!;
    const shut = geometryAttributes(withMesh(astronautFace, lids(0.92)), astronaut)!;
    const wide = geometryAttributes(withMesh(astronautFace, lids(-0.35)), astronaut)!;
    expect(base.eye.eye_open.type).toBe(0);
    expect(shut.eye.eye_open).toMatchObject({ type: 1 });
    expect(shut.eye.eye_open.probability).toBeGreaterThan(0.9);
    expect(wide.eye.eye_open).toMatchObject({ type: 0 });
    expect(wide.eye.eye_open.probability).toBeGreaterThan(base.eye.eye_open.probability - 1e-9);
    expect(wide.eye.eye_size.type).toBe(2);
    expect(shut.eye.eye_size.type).toBe(0);
  });

  it('the probability of "closed" falls steadily as the lids part, and crosses one half once', () => {
    const ps = [0.95, 0.8, 0.6, 0.4, 0.2, 0].map((t) => {
      const a = decide(geometryFeatures(measureGeometry(withMesh(astronautFace, lids(t)), astronaut)!), astronautFace);
      return a.eye.eye_open.type === 1 ? a.eye.eye_open.probability : 1 - a.eye.eye_open.probability;
    });
    for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeLessThanOrEqual(ps[i - 1] + 1e-9);
    expect(ps[0]).toBeGreaterThan(0.5);
    expect(ps[ps.length - 1]).toBeLessThan(0.5);
  });

  it('mouth: inner lips pressed together read as closed, pulled apart as open', () => {
    const shut = withMesh(obamaFace, (m) => {
      LIPS_LOWER_INNER.forEach((l, i) => { const u = LIPS_UPPER_INNER[i]; for (let k = 0; k < 3; k++) { const mid = (m[u][k] + m[l][k]) / 2; m[u][k] = mid; m[l][k] = mid; } });
    });
    const closed = geometryAttributes(shut, obama)!;
    expect(closed.mouth.mouth_open).toMatchObject({ type: 0 });
    expect(closed.mouth.mouth_open.probability).toBeGreaterThan(0.8);
    const open = geometryAttributes(withMesh(shut, (m) => {
      const drop = 0.1 * faceWidth(m);
      for (const l of LIPS_LOWER_INNER.slice(1, -1)) m[l][1] += drop;
    }), obama)!;
    expect(open.mouth.mouth_open).toMatchObject({ type: 1 });
    expect(open.mouth.mouth_open.probability).toBeGreaterThan(0.9);
  });

  it('smile: mouth corners pulled down and in turn a smile into no smile; a happy score moves the answer its way', () => {
    const frown = withMesh(obamaFace, (m) => {
      const w = faceWidth(m);
      const cx = (m[61][0] + m[291][0]) / 2;
      for (const i of [61, 291, 78, 308, 146, 185, 375, 409, 95, 191, 324, 415]) {
        m[i][1] += 0.08 * w;
        m[i][0] = cx + (m[i][0] - cx) * 0.75;
      }
    });
    const smiling = geometryAttributes(obamaFace, obama)!, frowning = geometryAttributes(frown, obama)!;
    expect(smiling.smile).toBeGreaterThanOrEqual(80);
    expect(frowning.smile).toBeLessThan(20);
    const sad = geometryAttributes(frown, obama, { happy: 0.01 })!, happy = geometryAttributes(frown, obama, { happy: 0.99 })!;
    expect(sad.smile).toBeLessThan(50);
    expect(happy.smile).toBeGreaterThan(sad.smile + 20);
  });

  it('brows: the portrait reads thick; with the brows painted over in forehead skin, sparse', async () => {
    const m = obamaFace.mesh!;
    const data = Buffer.from(obama.data);
    const ch = obama.channels;
    const skinAt = (i: number) => { const o = (Math.round(m[i][1]) * obama.width + Math.round(m[i][0])) * ch; return [data[o], data[o + 1], data[o + 2]]; };
    // Forehead skin just above each brow's middle (mesh 108 / 337 lie a brow-height above 105 / 334).
    for (const [brow, skinPt] of [[RIGHT_BROW, 108], [LEFT_BROW, 337]] as const) {
      const skin = skinAt(skinPt);
      const xs = brow.map((i) => m[i][0]), ys = brow.map((i) => m[i][1]);
      const h = Math.max(...ys) - Math.min(...ys);
      const x0 = Math.floor(Math.min(...xs) - 0.15 * h), x1 = Math.ceil(Math.max(...xs) + 0.15 * h);
      const y0 = Math.floor(Math.min(...ys) - 0.5 * h), y1 = Math.ceil(Math.max(...ys) + 0.8 * h);
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) { const o = (y * obama.width + x) * ch; data[o] = skin[0]; data[o + 1] = skin[1]; data[o + 2] = skin[2]; }
    }
    const bare = { ...obama, data };
    expect(geometryAttributes(obamaFace, obama)!.eyebrow.eyebrow_density.type).toBe(1);
    const a = geometryAttributes(obamaFace, bare)!;
    expect(a.eyebrow.eyebrow_density).toMatchObject({ type: 0 });
    expect(a.eyebrow.eyebrow_density.probability).toBeGreaterThan(0.7);
  });
});
