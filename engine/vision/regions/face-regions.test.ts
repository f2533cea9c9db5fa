import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Mask } from '../../image/mask.ts';
import type { RasterImage } from '../../image/raster.ts';
import { ModelRegistry } from '../models/registry.ts';
import { detectFaces, type Face } from '../faces/detect.ts';
import { faceRegionPlanes, faceRegions, REGION_NAMES, type RegionName } from './face-regions.ts';
import { feather } from '../../image/feather.ts';
import { atlas, type AtlasName } from './atlas.ts';
import { ATLAS, faceWindow, LO, sampleAtlas, SPAN, uvField, type UvField } from './uv-map.ts';

const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));

let image: RasterImage;
let face: Face;
let regions: Partial<Record<RegionName, Mask>>;

const mass = (m: Mask) => m.data.reduce((s, v) => s + v, 0) / 255;
/** Share of a mask's coverage that lies where `other` is below 50%. */
const outside = (m: Mask, other: Mask) => {
  let out = 0;
  for (let i = 0; i < m.data.length; i++) if (other.data[i] < 128) out += m.data[i];
  return out / 255 / mass(m);
};
const centroid = (m: Mask) => {
  let sx = 0, sy = 0, s = 0;
  for (let i = 0; i < m.data.length; i++) if (m.data[i]) { sx += (i % m.width) * m.data[i]; sy += Math.floor(i / m.width) * m.data[i]; s += m.data[i]; }
  return { x: sx / s, y: sy / s };
};
/** Share of the mask on bright, colourless pixels: teeth. */
const teeth = (m: Mask) => {
  let t = 0;
  for (let i = 0; i < m.data.length; i++) {
    if (!m.data[i]) continue;
    const [r, g, b] = [image.data[3 * i], image.data[3 * i + 1], image.data[3 * i + 2]];
    if (0.299 * r + 0.587 * g + 0.114 * b > 165 && Math.max(r, g, b) - Math.min(r, g, b) < 60) t += m.data[i];
  }
  return t / 255 / mass(m);
};

beforeAll(async () => {
  const human = await new ModelRegistry().get('human');
  const { data, info } = await sharp(path.join(fixtures, 'obama_official_portrait.jpg')).raw().toBuffer({ resolveWithObject: true });
  image = { data, width: info.width, height: info.height, channels: 3 };
  [face] = await detectFaces(human, image);
  regions = faceRegions(face, image, image);
});

describe('faceRegions', () => {
  it('draws every region, non-empty, at full image resolution', () => {
    expect(Object.keys(regions).sort()).toEqual([...REGION_NAMES].sort());
    for (const name of REGION_NAMES) {
      const m = regions[name]!;
      expect(m.width).toBe(image.width);
      expect(m.data.length).toBe(image.width * image.height);
      expect(mass(m), name).toBeGreaterThan(20);
    }
  });

  it('keeps the regions of the face inside its outline (beard and jaw may pass it)', () => {
    for (const name of REGION_NAMES.filter((n) => !['faceOval', 'beard', 'jaw'].includes(n))) {
      expect(outside(regions[name]!, regions.faceOval!), name).toBeLessThan(0.05);
    }
    expect(outside(regions.jaw!, regions.faceOval!)).toBeLessThan(0.6);
  });

  it('covers the lips, not the teeth, and the mouth opening where the teeth show', () => {
    expect(teeth(regions.upperLip!)).toBeLessThan(0.1);
    expect(teeth(regions.lowerLip!)).toBeLessThan(0.1);
    expect(teeth(regions.mouthOpening!)).toBeGreaterThan(0.4);
    // Little of the upper lip lies where the mouth opening is.
    expect(outside(regions.upperLip!, { ...regions.mouthOpening!, data: regions.mouthOpening!.data.map((v) => 255 - v) })).toBeLessThan(0.1);
  });

  it('nests pupil in iris in eye, on the correct sides', () => {
    for (const side of ['left', 'right'] as const) {
      expect(outside(regions[`${side}Iris`]!, regions[`${side}Eye`]!)).toBeLessThan(0.1);
      expect(outside(regions[`${side}Pupil`]!, regions[`${side}Iris`]!)).toBeLessThan(0.05);
      expect(mass(regions[`${side}Pupil`]!)).toBeLessThan(mass(regions[`${side}Iris`]!));
    }
    // The subject's left is the image's right.
    expect(centroid(regions.leftIris!).x).toBeGreaterThan(centroid(regions.rightIris!).x);
    expect(centroid(regions.leftCheek!).x).toBeGreaterThan(centroid(regions.rightCheek!).x);
  });

  it('places regions in the face from top to bottom', () => {
    const y = (n: RegionName) => centroid(regions[n]!).y;
    expect(y('forehead')).toBeLessThan(y('leftBrow'));
    expect(y('leftBrow')).toBeLessThan(y('leftEye'));
    expect(y('leftEye')).toBeLessThan(y('leftUnderEye'));
    expect(y('leftUnderEye')).toBeLessThan(y('nose'));
    expect(y('nose')).toBeLessThan(y('moustache'));
    expect(y('moustache')).toBeLessThan(y('upperLip'));
    expect(y('upperLip')).toBeLessThan(y('lowerLip'));
    expect(y('lowerLip')).toBeLessThan(y('chin'));
  });

  it('feathers the broad regions and keeps the lip edges sharp', () => {
    const soft = (m: Mask) => m.data.filter((v) => v > 0 && v < 255).length / m.data.filter((v) => v > 0).length;
    expect(soft(regions.forehead!)).toBeGreaterThan(0.3);
    expect(soft(regions.lowerLip!)).toBeLessThan(soft(regions.forehead!));
  });

  it('draws only what is asked, and nothing for a face without mesh', () => {
    expect(Object.keys(faceRegions(face, image, undefined, ['nose', 'upperLip']))).toEqual(['nose', 'upperLip']);
    expect(faceRegions({ ...face, mesh: undefined }, image)).toEqual({});
  });
});

/** sampleAtlas as it was before it skipped the pixels that fall outside the atlas's non-zero box. */
function sampleAtlasEveryPixel(a: Float32Array, f: UvField): Float32Array {
  const out = new Float32Array(f.u.length);
  const k = ATLAS / SPAN;
  for (let i = 0; i < out.length; i++) {
    const uu = f.u[i];
    if (uu !== uu) continue;
    const x = Math.min(ATLAS - 1.001, Math.max(0, (uu - LO) * k - 0.5)), y = Math.min(ATLAS - 1.001, Math.max(0, (f.v[i] - LO) * k - 0.5));
    const x0 = x | 0, y0 = y | 0, fx = x - x0, fy = y - y0, o = y0 * ATLAS + x0;
    out[i] = (a[o] * (1 - fx) + a[o + 1] * fx) * (1 - fy) + (a[o + ATLAS] * (1 - fx) + a[o + ATLAS + 1] * fx) * fy;
  }
  return out;
}

describe('sampleAtlas', () => {
  it('gives, on a real face, what sampling every pixel gives, for every atlas', () => {
    const field = uvField(face.mesh!, faceWindow(face.mesh!, image));
    const names: AtlasName[] = ['skin', 'forehead', 'leftCheek', 'rightCheek', 'leftUnderEye', 'rightUnderEye', 'nose', 'tZone', 'chin', 'jaw', 'beard', 'moustache'];
    for (const name of names) {
      const got = sampleAtlas(atlas(name), field);
      expect(got.some((v) => v > 0.5)).toBe(true);
      // Compared as bytes (toEqual over a million floats is slow): the same to the bit, -0 and NaN included.
      const want = sampleAtlasEveryPixel(atlas(name), field);
      expect(Buffer.from(got.buffer).equals(Buffer.from(want.buffer))).toBe(true);
    }
  });
});

describe('faceRegionPlanes', () => {
  it('gives each soft region, on its own part of the window, what the whole face window gave', () => {
    const mesh = face.mesh!, win = faceWindow(mesh, image), field = uvField(mesh, win);
    const sigma = 0.006 * Math.hypot(mesh[454][0] - mesh[234][0], mesh[454][1] - mesh[234][1]);
    const names: AtlasName[] = ['skin', 'forehead', 'leftCheek', 'rightCheek', 'leftUnderEye', 'rightUnderEye', 'nose', 'tZone', 'chin', 'jaw', 'beard', 'moustache'];
    const planes = faceRegionPlanes(face, image, undefined, names);
    for (const name of names) {
      const whole = feather(sampleAtlas(atlas(name), field), win, sigma);
      const { plane, win: part } = planes[name]!;
      expect(part.w * part.h).toBeLessThanOrEqual(win.w * win.h);
      // The part put back in the whole window, zeros around it.
      const placed = new Float32Array(win.w * win.h);
      for (let y = 0; y < part.h; y++) placed.set(plane.subarray(y * part.w, (y + 1) * part.w), (part.y0 - win.y0 + y) * win.w + part.x0 - win.x0);
      expect(Buffer.from(placed.buffer).equals(Buffer.from(whole.buffer))).toBe(true);
    }
  });
});
