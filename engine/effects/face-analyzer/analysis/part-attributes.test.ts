import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../../image/raster.ts';
import type { HumanLike } from '../../../vision/models/human.ts';
import { ModelRegistry } from '../../../vision/models/registry.ts';
import { parseFace, type FaceParser } from '../../../vision/parsing/face-parsing.ts';
import { detectFaces, type Face } from '../../../vision/faces/detect.ts';
import { faceFrame } from './geometry-measures.ts';
import { decideParts, partAttributes, RULES, type PartAttributes } from './part-attributes.ts';
import { measureParts } from './part-measures.ts';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');

async function load(name: string): Promise<RasterImage> {
  const { data, info } = await sharp(path.join(fixtures, name)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 };
}

let human: HumanLike;
let parser: FaceParser;

beforeAll(async () => {
  const models = new ModelRegistry();
  human = await models.get<HumanLike>('human');
  parser = await models.get<FaceParser>('bisenet-face-parsing');
});

async function analyse(image: RasterImage, face?: Face): Promise<{ face: Face; a: PartAttributes }> {
  face ??= (await detectFaces(human, image))[0];
  const parsing = await parseFace(parser, image, face);
  return { face, a: partAttributes(face, image, parsing)! };
}

/** Paints the pixels whose face coordinates (x across, y down, in face widths from between the eyes) pass `inside`. */
function paint(image: RasterImage, face: Face, rgb: [number, number, number], inside: (x: number, y: number) => boolean): RasterImage {
  const fr = faceFrame(face.mesh!);
  const o = fr.toImage([0, 0, 0]), ex = fr.toImage([1, 0, 0]), ey = fr.toImage([0, 1, 0]);
  const ax = [ex[0] - o[0], ex[1] - o[1]], ay = [ey[0] - o[0], ey[1] - o[1]], det = ax[0] * ay[1] - ax[1] * ay[0];
  const data = Buffer.from(image.data);
  for (let py = 0; py < image.height; py++) for (let px = 0; px < image.width; px++) {
    const dx = px + 0.5 - o[0], dy = py + 0.5 - o[1];
    const x = (dx * ay[1] - dy * ay[0]) / det, y = (ax[0] * dy - ax[1] * dx) / det;
    if (!inside(x, y)) continue;
    const i = (py * image.width + px) * image.channels;
    data[i] = rgb[0]; data[i + 1] = rgb[1]; data[i + 2] = rgb[2];
  }
  return { ...image, data };
}

describe('partAttributes on the Obama portrait', () => {
  let image: RasterImage, face: Face, a: PartAttributes;
  beforeAll(async () => {
    image = await load('obama_official_portrait.jpg');
    ({ face, a } = await analyse(image));
  });

  it('sees no glasses, no hat, no mask, no moustache', () => {
    expect(a.glass.type).toBe(0);
    expect(a.glass.probability).toBeGreaterThan(0.9);
    expect(a.hat.style.type).toBe(0);
    expect(a.hat.color.type).toBe(0);
    expect(a.mask.type).toBe(0);
    expect(a.moustache.type).toBe(0);
  });

  it('sees short black hair without a fringe', () => {
    expect(a.hair.length.type).toBe(1);
    expect(a.hair.color.type).toBe(0);
    expect(a.hair.color.probability).toBeGreaterThan(0.4); // measured 0.48 (four classes)
    expect(a.hair.bang.type).toBe(0);
  });

  it('gives probabilities of the type given, and a beauty score in 0..100', () => {
    for (const c of [a.glass, a.hat.style, a.mask, a.moustache, a.hair.length, a.hair.bang, a.hair.color, a.skin]) {
      expect(c.probability).toBeGreaterThanOrEqual(0.25);
      expect(c.probability).toBeLessThanOrEqual(1);
    }
    expect(Number.isInteger(a.beauty)).toBe(true);
    expect(a.beauty).toBeGreaterThanOrEqual(0);
    expect(a.beauty).toBeLessThanOrEqual(100);
  });

  it('turns to sunglasses when a dark band is painted over the eyes', async () => {
    // Two dark lenses and a bridge across the eye line.
    const edited = paint(image, face, [18, 18, 22], (x, y) => (Math.abs(y - 0.05) < 0.09 && Math.abs(x) > 0.05 && Math.abs(x) < 0.42) || (Math.abs(y) < 0.02 && Math.abs(x) <= 0.05));
    const { a: b } = await analyse(edited, face);
    expect(b.glass.type).toBe(2);
    expect(b.glass.probability).toBeGreaterThan(0.6);
  });

  it('sees a hat of the painted colour when a block covers the crown', async () => {
    const x = measureParts(face, image, await parseFace(parser, image, face))!;
    // The top of the mesh forehead in face widths (about -0.5 below the eyes' midpoint).
    const top = faceFrame(face.mesh!).at(10)[1];
    const edited = paint(image, face, [200, 30, 30], (u, v) => Math.abs(u) < 0.6 && v < top + 0.1 && v > top - 0.6);
    const { a: b } = await analyse(edited, face);
    expect(x.hatTop).toBeLessThan(RULES.hat[0]);
    expect(b.hat.style.type).toBe(1);
    expect(b.hat.color.type).toBe(1);
  });

  it('sees a mask worn correctly when a light-blue patch covers nose, mouth and chin', async () => {
    const edited = paint(image, face, [170, 205, 235], (u, v) => Math.abs(u) < 0.43 && v > 0.12 && v < 1.05 - 0.6 * u * u);
    const { a: b } = await analyse(edited, face);
    expect(b.mask.type).toBe(4);
    expect(b.mask.probability).toBeGreaterThan(0.6);
  });
});

describe('partAttributes on the Eileen Collins portrait', () => {
  let a: PartAttributes;
  beforeAll(async () => { ({ a } = await analyse(await load('astronaut_eileen_collins.png'))); });

  it('sees a fringe, no hat, no glasses and hair that is not black', () => {
    expect(a.hair.bang.type).toBe(1);
    expect(a.hat.style.type).toBe(0);
    expect(a.glass.type).toBe(0);
    expect(a.hair.color.type).not.toBe(0);
  });
});

describe('decideParts', () => {
  it('moves each answer with its measure', async () => {
    const image = await load('obama_official_portrait.jpg');
    const [face] = await detectFaces(human, image);
    const x = measureParts(face, image, await parseFace(parser, image, face))!;
    expect(decideParts({ ...x, glassBand: 0.5, lensShade: -10, eyeSpread: 40 }).glass.type).toBe(1);
    expect(decideParts({ ...x, glassBand: 0.5, lensShade: -60, eyeSpread: 8 }).glass.type).toBe(2);
    expect(decideParts({ ...x, hatTop: 0.9, hatEars: 0.8 }).hat.style.type).toBe(2);
    expect(decideParts({ ...x, hatTop: 0.9, hatColours: [0.1, 0.8, 0, 0, 0.1, 0], hatWidth: 1.4 }).hat.style.type).toBe(3);
    expect(decideParts({ ...x, coverChin: 0.9 }).mask.type).toBe(2);
    expect(decideParts({ ...x, coverChin: 0.9, coverMouth: 0.9 }).mask.type).toBe(3);
    expect(decideParts({ ...x, crownHair: 0.05, crownSkin: 0.8 }).hair.length.type).toBe(0);
    expect(decideParts({ ...x, sideHair: 0.7, hairBelowChin: 0.9 }).hair.length.type).toBe(3);
    expect(decideParts({ ...x, sideHair: 0.7, hairBelowChin: 0.2 }).hair.length.type).toBe(2);
    const near = decideParts({ ...x, fringe: RULES.bang[0] + 0.01 }).hair.bang, far = decideParts({ ...x, fringe: RULES.bang[0] + 0.2 }).hair.bang;
    expect(near.type).toBe(1);
    expect(far.probability).toBeGreaterThan(near.probability);
    expect(decideParts({ ...x, hairLit: 75, hairTint: 30 }).hair.color.type).toBe(1);
    expect(decideParts({ ...x, hairLit: 50, hairTint: 20 }).hair.color.type).toBe(2);
    expect(decideParts({ ...x, lipBandShade: 1, lipBandGrain: 1.5 }).moustache.type).toBe(1);
  });
});
