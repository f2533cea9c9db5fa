import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { RasterImage } from '../../../image/raster.ts';
import type { HumanLike } from '../../../vision/models/human.ts';
import type { OnnxHost } from '../../../vision/models/onnx.ts';
import { ModelRegistry } from '../../../vision/models/registry.ts';
import { scriptModelHost } from '../../../workers/script-host.ts';
import { parseFace, parsingRoi, type FaceParser } from '../../../vision/parsing/face-parsing.ts';
import { detectFaces, type Face } from '../../../vision/faces/detect.ts';
import { partAttributes } from './part-attributes.ts';
import { ANALYZER_PARSING } from '../tuning.ts';
import { partInputs, scaleFace, workScale } from './part-inputs.ts';
import { measureParts } from './part-measures.ts';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');

const face = (size: number, mesh = true): Face => ({
  box: { x0: 10, y0: 20, w: size, h: size }, score: 0.9, rotation: 0, pose: { yaw: 1, pitch: 2, roll: 3 },
  ...(mesh ? { mesh: Array.from({ length: 478 }, (_, i) => [10 + (i % 20) * size / 20, 20 + Math.floor(i / 20) * size / 24, -i] as [number, number, number]) } : {}),
});

describe('part inputs', () => {
  it('scales a face: box and mesh (z too), not its pose', () => {
    const f = face(100), s = scaleFace(f, 0.5);
    expect(s.box).toEqual({ x0: 5, y0: 10, w: 50, h: 50 });
    expect(s.mesh![21]).toEqual([f.mesh![21][0] / 2, f.mesh![21][1] / 2, f.mesh![21][2] / 2]);
    expect(s.pose).toEqual(f.pose);
    expect(scaleFace(f, 1)).toBe(f);
  });

  it('works at full size until the largest meshed face\'s parsing crop is larger than the parser input', () => {
    const small = face(60), big = face(600);
    expect(workScale([small], ANALYZER_PARSING)).toBe(1);
    const k = workScale([small, big], ANALYZER_PARSING);
    expect(k).toBeCloseTo(512 / parsingRoi(big).size, 6);
    // A face without mesh is not parsed: it does not set the scale.
    expect(workScale([face(6000, false), small], ANALYZER_PARSING)).toBe(1);
  });

  it('gives the same part attributes on a photo twice as large (the working copy is no finer than the parser)', async () => {
    const models = new ModelRegistry();
    const human = await models.get<HumanLike>('human');
    const { data, info } = await sharp(path.join(fixtures, 'obama_official_portrait.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
    const big = await sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).resize(info.width * 2, info.height * 2).raw().toBuffer({ resolveWithObject: true });
    const large: RasterImage = { data: big.data, width: big.info.width, height: big.info.height, channels: 3 };
    const [f] = await detectFaces(human, image);
    const a = await partInputs(models, image, [f], ANALYZER_PARSING);
    const b = await partInputs(models, large, [scaleFace(f, 2)], ANALYZER_PARSING);
    expect(b.scale).toBeLessThan(0.6);
    expect(Math.abs(b.image.width - a.image.width)).toBeLessThanOrEqual(Math.ceil(0.02 * a.image.width));
    const pa = partAttributes(a.faces[0], a.image, a.parsings[0]!, a.hair)!, pb = partAttributes(b.faces[0], b.image, b.parsings[0]!, b.hair)!;
    for (const key of ['glass', 'mask', 'moustache', 'skin'] as const) expect(pb[key].type, key).toBe(pa[key].type);
    // The parsing taken at the measures' lattice only measures exactly as a full one.
    const full = await parseFace(await models.get<FaceParser>('bisenet-face-parsing'), a.image, a.faces[0], ANALYZER_PARSING);
    expect(a.parsings[0]!.at.cols.length).toBeLessThan(full.win.w);
    expect(measureParts(a.faces[0], a.image, a.parsings[0]!, a.hair)).toEqual(measureParts(a.faces[0], a.image, full, a.hair));
    expect(pb.hat.style.type).toBe(pa.hat.style.type);
    expect(pb.hair.length.type).toBe(pa.hair.length.type);
    expect(pb.hair.color.type).toBe(pa.hair.color.type);
    expect(Math.abs(pb.beauty - pa.beauty)).toBeLessThanOrEqual(5);
    // Without the hair attributes there is no hair mask to make, and the other parts read the same.
    const c = await partInputs(models, image, [f], ANALYZER_PARSING, { hair: false });
    expect(a.hair).toBeDefined();
    expect(c.hair).toBeUndefined();
    const pc = partAttributes(c.faces[0], c.image, c.parsings[0]!, c.hair)!;
    for (const key of ['glass', 'mask', 'moustache', 'skin'] as const) expect(pc[key], key).toEqual(pa[key]);
    expect(pc.hat).toEqual(pa.hat);
  }, 120_000);

  it('asks the model host for every face\'s parse and the hair matte together, and gets what one after another gives', async () => {
    const { host: real, close } = scriptModelHost({ threads: 2, idleMs: 0, preload: [] });
    // The runs waiting in the host at once, counted on this side of the link.
    let waiting = 0, most = 0;
    const host: OnnxHost = {
      open: async (id) => {
        const net = await real.open(id);
        return { run: async (feeds, outputs) => { most = Math.max(most, ++waiting); try { return await net.run(feeds, outputs); } finally { waiting--; } } };
      },
    };
    try {
      const { data, info } = await sharp(path.join(fixtures, 'biden_obama_laughing_heads.jpg')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const image: RasterImage = { data, width: info.width, height: info.height, channels: 3 };
      const here = new ModelRegistry({ threads: 2 });
      const faces = await detectFaces(await here.get<HumanLike>('human'), image);
      expect(faces.filter((f) => f.mesh).length).toBeGreaterThanOrEqual(2);
      const hosted = await partInputs(new ModelRegistry({ threads: 2, host }), image, faces, ANALYZER_PARSING);
      // Two parses and the matte: one after another, never more than one would wait.
      expect(most).toBeGreaterThanOrEqual(2);
      // In this thread each onnxruntime run blocks until it is done: the values of one run after another.
      const alone = await partInputs(here, image, faces, ANALYZER_PARSING);
      const values = (p: (typeof alone.parsings)[number]) => p && { roi: p.roi, win: p.win, at: p.at, classes: p.classes };
      expect(hosted.parsings.map(values)).toEqual(alone.parsings.map(values));
      expect(hosted.hair).toEqual(alone.hair);
    } finally {
      await close();
    }
  }, 300_000);
});
