import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import { decodeImage } from '../../image/decode.ts';
import { ModelRegistry } from '../models/registry.ts';
import { WorkerPool } from '../../workers/pool.ts';
import { detectFaces, type Face } from './detect.ts';
import { LEFT_EYE, LEFT_IRIS, RIGHT_EYE, RIGHT_IRIS } from './landmarks.ts';

const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const load = async (name: string, op: (s: Sharp) => Sharp = (s) => s): Promise<RasterImage> => {
  const { data, info } = await op(sharp(path.join(fixtures, name)).rotate()).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
};

const inside = (p: number[], poly: number[][]) => {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i], [xj, yj] = poly[j];
    if ((yi > p[1]) !== (yj > p[1]) && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
};

let human: unknown;
let obama: RasterImage;
let obamaFaces: Face[];

beforeAll(async () => {
  human = await new ModelRegistry().get('human');
  obama = await load('obama_official_portrait.jpg');
  obamaFaces = await detectFaces(human, obama);
});

describe('detectFaces', () => {
  it('finds the one face of a portrait, with a sane box, mesh, iris and pose', () => {
    expect(obamaFaces).toHaveLength(1);
    const [f] = obamaFaces;
    expect(f.score).toBeGreaterThan(0.8);
    expect(f.rotation).toBe(0);
    // The face lies in the upper middle of the 910x1137 portrait.
    expect(f.box.x0).toBeGreaterThan(330); expect(f.box.x0 + f.box.w).toBeLessThan(660);
    expect(f.box.y0).toBeGreaterThan(90); expect(f.box.y0 + f.box.h).toBeLessThan(460);
    expect(f.box.w).toBeGreaterThan(180);
    expect(f.mesh).toHaveLength(478);
    const b = f.box;
    const within = f.mesh!.filter(([x, y]) => x >= b.x0 - 1 && x <= b.x0 + b.w + 1 && y >= b.y0 - 1 && y <= b.y0 + b.h + 1);
    expect(within.length).toBe(478);
    // Each iris centre inside its own eye opening (right iris: the subject's right, the image's left).
    const eye = (idx: number[]) => idx.map((i) => f.mesh![i]);
    expect(inside(f.mesh![RIGHT_IRIS.center], eye(RIGHT_EYE))).toBe(true);
    expect(inside(f.mesh![LEFT_IRIS.center], eye(LEFT_EYE))).toBe(true);
    expect(f.mesh![RIGHT_IRIS.center][0]).toBeLessThan(f.mesh![LEFT_IRIS.center][0]);
    // A frontal official portrait.
    expect(Math.abs(f.pose!.yaw)).toBeLessThan(12);
    expect(Math.abs(f.pose!.pitch)).toBeLessThan(12);
    expect(Math.abs(f.pose!.roll)).toBeLessThan(5);
  });

  it('finds no face on a product photo', async () => {
    expect(await detectFaces(human, await load('product_coffee_cup.png'), { searchRotations: true })).toEqual([]);
  });

  it('measures roll: the portrait turned 20 degrees clockwise, and mirrored', async () => {
    const [turned] = await detectFaces(human, await load('obama_official_portrait.jpg', (s) => s.rotate(20, { background: '#808080' })));
    expect(turned.pose!.roll).toBeGreaterThan(16);
    expect(turned.pose!.roll).toBeLessThan(24);
    // sharp mirrors before it rotates: mirror, then turn back 20 degrees = the turned portrait mirrored.
    const [mirrored] = await detectFaces(human, await load('obama_official_portrait.jpg', (s) => s.flop().rotate(-20, { background: '#808080' })));
    expect(mirrored.pose!.roll).toBeLessThan(-16);
    expect(mirrored.pose!.roll).toBeGreaterThan(-24);
  });

  it('finds the astronaut lying on her side, as rotation 90, where the upright face would be after turning', async () => {
    const upright = await detectFaces(human, await load('astronaut_eileen_collins.png'));
    const turned = await detectFaces(human, await load('astronaut_rot90cw.png'), { searchRotations: true });
    expect(upright).toHaveLength(1);
    expect(turned).toHaveLength(1);
    expect(turned[0].rotation).toBe(90);
    // Turning 90 degrees clockwise maps (x, y) of the 512x512 original to (512 - y, x).
    const u = upright[0].box, t = turned[0].box;
    expect(Math.abs(t.x0 - (512 - u.y0 - u.h))).toBeLessThan(12);
    expect(Math.abs(t.y0 - u.x0)).toBeLessThan(12);
    expect(Math.abs(t.w - u.h)).toBeLessThan(12);
  });

  it('gives the same face for an EXIF-rotated JPEG once decoded', async () => {
    const bytes = await readFile(path.join(fixtures, 'obama_official_exif_orientation6.jpg'));
    const decoded = await decodeImage(bytes, 'jpeg', 50e6);
    const [f] = await detectFaces(human, decoded);
    const o = obamaFaces[0].box;
    expect(Math.abs(f.box.x0 - o.x0) + Math.abs(f.box.y0 - o.y0) + Math.abs(f.box.w - o.w)).toBeLessThan(12);
  });

  it('limits meshes and faces as asked, keeping pose for every face', async () => {
    const faces = await detectFaces(human, obama, { meshFaces: 0 });
    expect(faces).toHaveLength(1);
    expect(faces[0].mesh).toBeUndefined();
    expect(faces[0].pose).toBeDefined();
    expect(await detectFaces(human, obama, { maxFaces: 0 })).toEqual([]);
  });

  it('runs inside an engine worker thread, with the registry that worker builds', async () => {
    const probe = new URL('../../test/effects/vision-probe.ts', import.meta.url).href;
    const pool = new WorkerPool({ effects: { 'vision-probe': probe }, threads: 1 }, 1, 2);
    try {
      const bytes = await readFile(path.join(fixtures, 'obama_official_portrait.jpg'));
      const out = await pool.run('vision-probe', { image: { bytes, format: 'jpeg', maxPixels: 50e6 } }, {}, 60_000);
      const faces = (out.data as { faces: { box: { x0: number }; points: number }[] }).faces;
      expect(faces).toHaveLength(1);
      expect(faces[0].points).toBe(478);
      expect(Math.abs(faces[0].box.x0 - obamaFaces[0].box.x0)).toBeLessThan(1);
    } finally {
      await pool.close();
    }
  });
});
