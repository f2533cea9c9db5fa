import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RasterImage } from '../../image/raster.ts';
import { humanModel, type HumanLike } from '../models/human.ts';
import { ModelRegistry } from '../models/registry.ts';
import { WorkerPool } from '../../workers/pool.ts';
import { detectFaces, type Face } from '../faces/detect.ts';
import { faceAttributes, type FaceAttributes } from './attributes.ts';
import { ATTRIBUTE_MODELS } from './attribute-specs.ts';
import { PIPELINE } from './pipeline.ts';

const fixtures = fileURLToPath(new URL('../../test/fixtures/', import.meta.url));
const load = async (name: string): Promise<RasterImage> => {
  const { data, info } = await sharp(path.join(fixtures, name)).rotate().removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
};

const NEUTRAL = 0, HAPPY = 1;

let human: HumanLike;
let obama: RasterImage, astronaut: RasterImage;
let obamaFaces: Face[], astronautFaces: Face[];
let obamaAttr: FaceAttributes, astronautAttr: FaceAttributes;

beforeAll(async () => {
  human = await new ModelRegistry().get<HumanLike>('human');
  [obama, astronaut] = await Promise.all([load('obama_official_portrait.jpg'), load('astronaut_eileen_collins.png')]);
  obamaFaces = await detectFaces(human, obama);
  astronautFaces = await detectFaces(human, astronaut);
  expect(obamaFaces).toHaveLength(1);
  expect(astronautFaces).toHaveLength(1);
  [obamaAttr] = await faceAttributes(human, obama, obamaFaces);
  [astronautAttr] = await faceAttributes(human, astronaut, astronautFaces);
});

const validProbabilities = (a: FaceAttributes) => {
  for (const p of [a.age.probability, a.gender.probability, a.emotion.probability, ...a.emotion.scores.filter((s) => s > 0)]) {
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThanOrEqual(1);
  }
  expect(a.emotion.scores).toHaveLength(7);
  expect(a.emotion.scores.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 2);
  expect(a.emotion.probability).toBeCloseTo(Math.max(...a.emotion.scores), 3);
  expect(a.emotion.scores.indexOf(Math.max(...a.emotion.scores))).toBe(a.emotion.value);
  expect(Number.isInteger(a.age.value)).toBe(true);
  // The class reported is the more likely one.
  expect(a.gender.probability).toBeGreaterThanOrEqual(0.5);
};

describe('faceAttributes', () => {
  it('reads the official portrait as an adult man, smiling or neutral', () => {
    expect(obamaAttr.gender.value).toBe(0);
    expect(obamaAttr.gender.probability).toBeGreaterThan(0.8);
    // Born 1961, photographed 2012.
    expect(obamaAttr.age.value).toBeGreaterThanOrEqual(35);
    expect(obamaAttr.age.value).toBeLessThanOrEqual(62);
    expect([NEUTRAL, HAPPY]).toContain(obamaAttr.emotion.value);
    validProbabilities(obamaAttr);
  });

  it('reads the astronaut as an adult woman, smiling', () => {
    expect(astronautAttr.gender.value).toBe(1);
    expect(astronautAttr.gender.probability).toBeGreaterThan(0.8);
    // Eileen Collins, born 1956, photographed 1992 (NASA portrait).
    expect(astronautAttr.age.value).toBeGreaterThanOrEqual(25);
    expect(astronautAttr.age.value).toBeLessThanOrEqual(55);
    expect(astronautAttr.emotion.value).toBe(HAPPY);
    validProbabilities(astronautAttr);
  });

  it('gives each face of a batch the same answer as alone, in order', async () => {
    const both = await faceAttributes(human, obama, [...obamaFaces, ...obamaFaces]);
    expect(both).toHaveLength(2);
    for (const a of both) {
      expect(a.gender).toEqual(obamaAttr.gender);
      expect(a.age.value).toBe(obamaAttr.age.value);
      expect(a.emotion.value).toBe(obamaAttr.emotion.value);
    }
    expect(await faceAttributes(human, obama, [])).toEqual([]);
  });

  it('answers only the families asked for, each as the full run does', async () => {
    const [g] = await faceAttributes(human, obama, obamaFaces, undefined, new Set(['gender']));
    expect(Object.keys(g)).toEqual(['gender']);
    expect(g.gender).toEqual(obamaAttr.gender);
    const [ae] = await faceAttributes(human, astronaut, astronautFaces, undefined, new Set(['age', 'emotion']));
    expect(Object.keys(ae).sort()).toEqual(['age', 'emotion']);
    expect(ae.age).toEqual(astronautAttr.age);
    expect(ae.emotion).toEqual(astronautAttr.emotion);
  });

  it('runs SSR-Net (gender\'s child term alone reads it) only on faces read as children: never on these adults', async () => {
    const ssr = await humanModel(human, ATTRIBUTE_MODELS['ssrnet-gender'].file);
    const execute = ssr.execute.bind(ssr);
    let calls = 0;
    ssr.execute = (...a: Parameters<typeof execute>) => { calls++; return execute(...a); };
    try {
      const [a] = await faceAttributes(human, obama, obamaFaces);
      const [b] = await faceAttributes(human, astronaut, astronautFaces, undefined, new Set(['gender']));
      expect(calls).toBe(0);
      expect(a.gender).toEqual(obamaAttr.gender);
      expect(b.gender).toEqual(astronautAttr.gender);
      expect(obamaAttr.age.years).toBeGreaterThan(PIPELINE.gender.logistic!.child.below);
    } finally {
      ssr.execute = execute;
    }
  });

  it('works from the box and roll alone when a face has no mesh', async () => {
    const [bare] = await detectFaces(human, astronaut, { meshFaces: 0 });
    expect(bare.mesh).toBeUndefined();
    const [a] = await faceAttributes(human, astronaut, [bare]);
    expect(a.gender.value).toBe(1);
    expect(Math.abs(a.age.value - astronautAttr.age.value)).toBeLessThanOrEqual(8);
  });

  it('leaves no tensor behind', async () => {
    const before = human.tf.memory().numTensors;
    for (let i = 0; i < 4; i++) await faceAttributes(human, astronaut, astronautFaces);
    expect(human.tf.memory().numTensors).toBe(before);
  });

  it('runs inside an engine worker thread, on the models that worker loads', async () => {
    const probe = new URL('../../test/effects/attributes-probe.ts', import.meta.url).href;
    const pool = new WorkerPool({ effects: { 'attributes-probe': probe }, threads: 1 }, 1, 2);
    try {
      const bytes = await readFile(path.join(fixtures, 'obama_official_portrait.jpg'));
      const out = await pool.run('attributes-probe', { image: { bytes, format: 'jpeg', maxPixels: 50e6 } }, {}, 120_000);
      const [a] = (out.data as { attributes: FaceAttributes[] }).attributes;
      // The worker decodes the JPEG itself (decodeImage): allow the last digits to differ.
      expect(a.gender.value).toBe(obamaAttr.gender.value);
      expect(a.gender.probability).toBeCloseTo(obamaAttr.gender.probability, 2);
      expect(a.age.value).toBe(obamaAttr.age.value);
      expect(a.emotion.value).toBe(obamaAttr.emotion.value);
    } finally {
      await pool.close();
    }
  });
});
