/**
 * Accuracy of the geometry face attributes (engine/effects/face-analyzer/analysis/geometry-attributes.ts) on the shared test
 * faces, against the by-eye labels in scripts/datasets/face-geometry-labels.json, per half of a split fixed by file
 * name before anything was measured: sha1(path) first byte even = fit, odd = check. Smile is also scored
 * against FER-2013's own happy / neutral labels. Prints per-attribute accuracy on both halves (with the
 * majority-class baseline), the mean probability given, and the time per face.
 *
 *   npx tsx scripts/quality/face-geometry.ts          # evaluate the rules in geometry-attributes.ts
 *   npx tsx scripts/quality/face-geometry.ts --fit    # refit RULES / PROTOTYPES on the fit half, print them
 *   (--errors lists the fit half's misses; --dump FILE writes every face's features as JSON)
 *
 * The happy score the smile rule can take comes from human's FER-2013 emotion model (64x64 grey crop,
 * mirrored and averaged), run here only to have one; the engine passes its own.
 *
 * Reads ../shared/testdata from the repository root (ATELIER_TESTDATA overrides).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import {
  type Coded, decideGeometry as decide, detectFaces, type Face, GEOMETRY_PROTOTYPES as PROTOTYPES,
  GEOMETRY_RULES as RULES, type GeometryAttributes, geometryFeatures, type GeometryFeatures, geometryLogit as logit,
  type GeometryMeasures, type HumanLike, humanModel, type LogisticRule, measureGeometry, ModelRegistry,
  type RasterImage, type TensorLike
} from '../../engine/for-scripts.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(root, '../shared/testdata');
const labelFile = path.join(root, 'scripts/datasets/face-geometry-labels.json');

type Label = Partial<Record<'eyes_closed' | 'mouth_open' | 'smile' | 'eye_size' | 'eyebrow_curve' | 'eyebrow_length' | 'eyebrow_density' | 'eyelid_type', number>> & { mesh_bad?: string };
type Half = 'fit' | 'check';

/** The split, by file name only. */
export const half = (rel: string): Half => (createHash('sha1').update(rel).digest()[0] & 1 ? 'check' : 'fit');

interface Sample { key: string; rel: string; half: Half; label: Label; face: Face; m: GeometryMeasures; x: GeometryFeatures; happy: number; fer?: string; ms: number; msMesh: number }

async function load(rel: string): Promise<RasterImage> {
  let s = sharp(path.join(testdata, rel)).rotate().removeAlpha().toColourspace('srgb');
  // FER-2013 crops are 48x48: too small for the detector, as its labels note.
  if (rel.startsWith('faces_emotion/')) s = s.resize(192, 192, { kernel: 'lanczos3' });
  const { data, info } = await s.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 };
}

/** P(happy) from human's FER-2013 mini-Xception: grey -1..1, 64x64, square crop 1.2x the face box, mirrored and averaged. */
async function happyScore(human: HumanLike, image: RasterImage, face: Face): Promise<number> {
  const model = await humanModel(human, 'emotion.json');
  const side = Math.max(face.box.w, face.box.h) * 1.2;
  const cx = face.box.x0 + face.box.w / 2, cy = face.box.y0 + face.box.h / 2;
  const left = Math.round(cx - side / 2), top = Math.round(cy - side / 2), size = Math.round(side);
  const pad = { top: Math.max(0, -top), left: Math.max(0, -left), bottom: Math.max(0, top + size - image.height), right: Math.max(0, left + size - image.width), background: '#000' };
  const padded = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } }).extend(pad).raw().toBuffer({ resolveWithObject: true });
  const grey = await sharp(padded.data, { raw: { width: padded.info.width, height: padded.info.height, channels: padded.info.channels as 3 } })
    .extract({ left: left + pad.left, top: top + pad.top, width: size, height: size })
    .resize(64, 64).greyscale().raw().toBuffer();
  const input = new Float32Array(2 * 64 * 64);
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) {
    const v = (grey[y * 64 + x] / 255 - 0.5) * 2;
    input[y * 64 + x] = v;
    input[64 * 64 + y * 64 + (63 - x)] = v;
  }
  const t = human.tf.tensor4d(input, [2, 64, 64, 1]);
  const out = model.execute(t) as TensorLike;
  const p = await out.data();
  t.dispose(); out.dispose();
  // oarriaga's order: angry, disgust, fear, happy, sad, surprise, neutral.
  return (p[3] + p[7 + 3]) / 2;
}

async function collect(): Promise<Sample[]> {
  const labels = JSON.parse(readFileSync(labelFile, 'utf8')).faces as Record<string, Label>;
  const human = await new ModelRegistry().get('human') as HumanLike;
  const byFile = new Map<string, [number, Label][]>();
  for (const [key, label] of Object.entries(labels)) {
    const [rel, i] = key.split('#');
    byFile.set(rel, [...(byFile.get(rel) ?? []), [Number(i), label]]);
  }
  const samples: Sample[] = [];
  for (const [rel, entries] of byFile) {
    const image = await load(rel);
    const faces = await detectFaces(human, image);
    for (const [i, label] of entries) {
      const face = faces[i];
      if (!face?.mesh) { console.log(`${rel}#${i}: no mesh (detectFaces meshes the 5 largest faces), not scored`); continue; }
      const t0 = performance.now();
      const m = measureGeometry(face, image)!;
      const x = geometryFeatures(m);
      decide(x, face);
      const ms = performance.now() - t0;
      const t1 = performance.now();
      measureGeometry(face);
      const msMesh = performance.now() - t1;
      const fer = rel.startsWith('faces_emotion/') ? rel.split('_')[2] : undefined;
      samples.push({ key: `${rel}#${i}`, rel, half: half(rel), label, face, m, x, happy: await happyScore(human, image, face), fer, ms, msMesh });
    }
  }
  return samples;
}

// ---- fitting (fit half only) ----

/** Minimises f by gradient descent with numeric gradients and backtracking (few parameters, few samples). */
function minimise(f: (p: number[]) => number, p0: number[], iters = 3000): number[] {
  let p = [...p0], fp = f(p), step = 0.1;
  for (let it = 0; it < iters && step > 1e-9; it++) {
    const g = p.map((_, i) => { const q = [...p]; q[i] += 1e-5; return (f(q) - fp) / 1e-5; });
    const gn = Math.hypot(...g) || 1;
    const q = p.map((v, i) => v - (step * g[i]) / gn);
    const fq = f(q);
    if (fq < fp) { p = q; fp = fq; step *= 1.2; } else step *= 0.5;
  }
  return p;
}

const sig = (v: number) => 1 / (1 + Math.exp(-v));
const nll = (p: number, y: number) => -Math.log(Math.max(1e-9, y ? p : 1 - p));

/** Logistic regression in standard units with an L2 prior (lambda 1) on the weights, returned in raw units. */
function fitLogistic(rows: number[][], ys: number[], names: readonly (keyof GeometryFeatures | 'happy')[]): { weights: number[]; bias: number } {
  const k = names.length;
  const mean = names.map((_, j) => rows.reduce((s, r) => s + r[j], 0) / rows.length);
  const sd = names.map((_, j) => Math.sqrt(rows.reduce((s, r) => s + (r[j] - mean[j]) ** 2, 0) / rows.length) || 1);
  const zs = rows.map((r) => r.map((v, j) => (v - mean[j]) / sd[j]));
  const f = (p: number[]) => zs.reduce((s, r, i) => s + nll(sig(p[k] + r.reduce((a, v, j) => a + p[j] * v, 0)), ys[i]), 0) + p.slice(0, k).reduce((s, w) => s + w * w / 2, 0);
  const p = minimise(f, new Array(k + 1).fill(0));
  const weights = p.slice(0, k).map((w, j) => w / sd[j]);
  return { weights: weights.map(r4), bias: r4(p[k] - weights.reduce((s, w, j) => s + w * mean[j], 0)) };
}

/** Ordinal logistic (3 levels) on score = w . x: P(y >= 1) = sigma(s - c0), P(y >= 2) = sigma(s - c1). */
function fitOrdinal(rows: number[][], ys: number[]): { weights: number[]; cuts: number[] } {
  const k = rows[0].length;
  const mean = rows[0].map((_, j) => rows.reduce((s, r) => s + r[j], 0) / rows.length);
  const sd = rows[0].map((_, j) => Math.sqrt(rows.reduce((s, r) => s + (r[j] - mean[j]) ** 2, 0) / rows.length) || 1);
  const zs = rows.map((r) => r.map((v, j) => (v - mean[j]) / sd[j]));
  const f = (p: number[]) => {
    const c0 = p[k], c1 = p[k] + Math.exp(p[k + 1]);
    return zs.reduce((s, r, i) => {
      const sc = r.reduce((a, v, j) => a + p[j] * v, 0);
      const a1 = sig(sc - c0), a2 = sig(sc - c1);
      const pr = ys[i] === 0 ? 1 - a1 : ys[i] === 1 ? a1 - a2 : a2;
      return s - Math.log(Math.max(1e-9, pr));
    }, 0) + p.slice(0, k).reduce((s, w) => s + w * w / 2, 0);
  };
  const p = minimise(f, [...new Array(k).fill(0.5), -1, 0.7]);
  const weights = p.slice(0, k).map((w, j) => w / sd[j]);
  const shift = weights.reduce((s, w, j) => s + w * mean[j], 0);
  return { weights: weights.map(r4), cuts: [r4(p[k] + shift), r4(p[k] + Math.exp(p[k + 1]) + shift)] };
}

const r4 = (v: number) => Math.round(v * 1e4) / 1e4;
const means = (rows: Sample[], keys: readonly (keyof GeometryFeatures)[]) => keys.map((k) => {
  const v = rows.map((s) => s.x[k]).filter(Number.isFinite);
  return r4(v.reduce((a, b) => a + b, 0) / (v.length || 1));
});

/** Ordinary least squares by the normal equations (3 unknowns). */
function leastSquares(X: number[][], y: number[]): number[] {
  const k = X[0].length;
  const A = Array.from({ length: k }, (_, i) => Array.from({ length: k }, (_, j) => X.reduce((s, r) => s + r[i] * r[j], 0)));
  const v = Array.from({ length: k }, (_, i) => X.reduce((s, r, n) => s + r[i] * y[n], 0));
  // Gauss-Jordan.
  for (let c = 0; c < k; c++) {
    const p = A[c][c] || 1e-12;
    for (let j = 0; j < k; j++) A[c][j] /= p;
    v[c] /= p;
    for (let r = 0; r < k; r++) if (r !== c) { const f = A[r][c]; for (let j = 0; j < k; j++) A[r][j] -= f * A[c][j]; v[r] -= f * v[c]; }
  }
  return v;
}
const logitOf = (p: number) => Math.log(Math.min(0.999, Math.max(0.001, p)) / (1 - Math.min(0.999, Math.max(0.001, p))));

function fit(samples: Sample[]) {
  const fitHalf = samples.filter((s) => s.half === 'fit' && !s.label.mesh_bad);
  const binaryRule = (attr: keyof Label, rule: LogisticRule, extra?: (s: Sample) => number) => {
    const rows = fitHalf.filter((s) => typeof s.label[attr] === 'number' && rule.features.every((k) => Number.isFinite(s.x[k])));
    const names = [...rule.features, ...(extra ? ['happy' as const] : [])];
    const r = fitLogistic(rows.map((s) => [...rule.features.map((k) => s.x[k]), ...(extra ? [extra(s)] : [])]), rows.map((s) => s.label[attr] as number), names);
    return { n: rows.length, features: rule.features, weights: r.weights.slice(0, rule.features.length), bias: r.bias, means: means(rows, rule.features), ...(extra ? { happy: r.weights[rule.features.length] } : {}) };
  };
  // Smile: by-eye labels, plus FER's own happy (1) / neutral (0) where no by-eye label says otherwise.
  const smileLabel = (s: Sample) => s.label.smile ?? (s.fer === 'happy' ? 1 : s.fer === 'neutral' ? 0 : undefined);
  for (const s of fitHalf) if (s.label.smile === undefined && smileLabel(s) !== undefined) s.label.smile = smileLabel(s);
  // Long brows: no fitted threshold. By definition the brow is long once it passes the nose-wing / eye-corner
  // line (reach 0); the spread is the disagreement between the two brows of one frontal face.
  const frontal = fitHalf.filter((s) => Math.abs(s.face.pose?.yaw ?? 90) < 20);
  const diffs = frontal.map((s) => s.m.brows.right.reach - s.m.brows.left.reach).filter(Number.isFinite);
  const spread = Math.sqrt(diffs.reduce((a, d) => a + d * d, 0) / diffs.length / 2);
  const sizeRows = fitHalf.filter((s) => typeof s.label.eye_size === 'number');
  const size = fitOrdinal(sizeRows.map((s) => RULES.eyeSize.features.map((k) => s.x[k as keyof GeometryFeatures])), sizeRows.map((s) => s.label.eye_size as number));
  // Nose and shape measures: least squares on [1, pitch, |yaw|] over the fit half, and the residual SD.
  const stats = (keys: string[]) => Object.fromEntries(keys.map((k) => {
    const rows = fitHalf.filter((s) => Number.isFinite(s.x[k as keyof GeometryFeatures]) && s.face.pose);
    const X = rows.map((s) => [1, s.face.pose!.pitch, Math.abs(s.face.pose!.yaw)]);
    const y = rows.map((s) => s.x[k as keyof GeometryFeatures]);
    const b = leastSquares(X, y);
    const res = y.map((v, i) => v - X[i].reduce((a, xv, j) => a + xv * b[j], 0));
    const p4 = (v: number) => Number(v.toPrecision(4));
    return [k, [p4(b[0]), p4(Math.sqrt(res.reduce((a, r) => a + r * r, 0) / res.length)), p4(b[1]), p4(b[2])]];
  }));
  console.log(JSON.stringify({
    eyesClosed: binaryRule('eyes_closed', RULES.eyesClosed),
    mouthOpen: binaryRule('mouth_open', RULES.mouthOpen),
    smile: binaryRule('smile', RULES.smile),
    smileHappy: binaryRule('smile', RULES.smileHappy, (s) => logitOf(s.happy)),
    browThick: binaryRule('eyebrow_density', RULES.browThick),
    browCurved: binaryRule('eyebrow_curve', RULES.browCurved),
    browLong: { n: diffs.length, features: RULES.browLong.features, weights: [r4(1 / spread)], bias: 0, means: means(frontal, RULES.browLong.features) },
    doubleLid: binaryRule('eyelid_type', RULES.doubleLid),
    eyeSize: { n: sizeRows.length, features: RULES.eyeSize.features, ...size, means: means(sizeRows, RULES.eyeSize.features) },
    noseStats: stats(Object.keys(PROTOTYPES.nose.stats)),
    shapeStats: stats(Object.keys(PROTOTYPES.shape.stats)),
  }, null, 1));
}

// ---- evaluation ----

type Getter = (a: GeometryAttributes) => Coded;
const ATTRS: [keyof Label, string, Getter][] = [
  ['eyes_closed', 'eye_open (closed)', (a) => a.eye.eye_open],
  ['eye_size', 'eye_size', (a) => a.eye.eye_size],
  ['eyelid_type', 'eyelid_type', (a) => a.eye.eyelid_type],
  ['eyebrow_density', 'eyebrow_density', (a) => a.eyebrow.eyebrow_density],
  ['eyebrow_curve', 'eyebrow_curve', (a) => a.eyebrow.eyebrow_curve],
  ['eyebrow_length', 'eyebrow_length', (a) => a.eyebrow.eyebrow_length],
  ['mouth_open', 'mouth_open', (a) => a.mouth.mouth_open],
  ['smile', 'smile (>= 50)', (a) => ({ type: a.smile >= 50 ? 1 : 0, probability: Math.max(a.smile, 100 - a.smile) / 100 })],
];

function evaluate(samples: Sample[]) {
  const ok = samples.filter((s) => !s.label.mesh_bad);
  console.log(`faces: ${samples.length} labelled with a mesh, ${samples.length - ok.length} left out where the mesh missed the features by eye (${samples.filter((s) => s.label.mesh_bad).map((s) => s.key).join(', ')})`);
  const cell = (rows: { y: number; got: Coded }[]) => {
    if (rows.length === 0) return '-';
    const right = rows.filter((r) => r.got.type === r.y).length;
    const counts = new Map<number, number>();
    rows.forEach((r) => counts.set(r.y, (counts.get(r.y) ?? 0) + 1));
    const base = Math.max(...counts.values());
    const meanP = rows.reduce((s, r) => s + r.got.probability, 0) / rows.length;
    return `${right}/${rows.length} ${pct(right / rows.length)} (base ${pct(base / rows.length)}, mean p ${meanP.toFixed(2)})`;
  };
  const table = (name: string, run: (s: Sample) => GeometryAttributes, attrs: typeof ATTRS) => {
    console.log(`\n${name}\nattribute\tfit half\tcheck half`);
    for (const [key, title, get] of attrs) {
      const per = (h: Half) => ok.filter((s) => s.half === h && typeof s.label[key] === 'number').map((s) => ({ y: s.label[key] as number, got: get(run(s)) }));
      console.log([title, cell(per('fit')), cell(per('check'))].join('\t'));
    }
    const fer = (h: Half) => ok.filter((s) => s.half === h && (s.fer === 'happy' || s.fer === 'neutral')).map((s) => ({ y: s.fer === 'happy' ? 1 : 0, got: ATTRS[7][2](run(s)) }));
    console.log(['smile vs FER happy/neutral', cell(fer('fit')), cell(fer('check'))].join('\t'));
  };
  table('geometry only (no happy score)', (s) => decide(s.x, s.face), ATTRS);
  table('smile with the emotion model\'s happy score', (s) => decide(s.x, s.face, { happy: s.happy }), ATTRS.slice(7));
  if (process.argv.includes('--errors')) {
    // Fit-half misses only: what tuning may look at.
    for (const [key, title, get] of ATTRS) {
      for (const s of ok.filter((q) => q.half === 'fit' && typeof q.label[key] === 'number')) {
        const got = get(decide(s.x, s.face, { happy: s.happy }));
        if (got.type !== s.label[key]) console.log(`  miss ${title}: ${s.key} label ${s.label[key]} got ${got.type} p ${got.probability} | ${Object.entries(s.x).map(([k, v]) => `${k} ${Number(v).toFixed(3)}`).join(' ')} happy ${s.happy.toFixed(2)}`);
      }
    }
  }

  const dist = (h: Half, get: (a: GeometryAttributes) => number, n: number) => {
    const c = new Array(n).fill(0);
    ok.filter((s) => s.half === h).forEach((s) => c[get(decide(s.x, s.face))]++);
    return c.join('/');
  };
  console.log(`\nnose types found (upturned/hooked/normal/round-tipped): fit ${dist('fit', (a) => a.nose.type, 4)}, check ${dist('check', (a) => a.nose.type, 4)}`);
  console.log(`face shapes found (square/triangular/oval/heart/round): fit ${dist('fit', (a) => a.shape.type, 5)}, check ${dist('check', (a) => a.shape.type, 5)}`);
  // The first face pays for the JIT; leave it out.
  const q = (v: number[], f: number) => v[Math.min(v.length - 1, Math.floor(f * v.length))].toFixed(2);
  const ms = samples.slice(1).map((s) => s.ms).sort((a, b) => a - b), mm = samples.slice(1).map((s) => s.msMesh).sort((a, b) => a - b);
  console.log(`\ntime per face after detection (measures + rules): median ${q(ms, 0.5)} ms, 90th percentile ${q(ms, 0.9)} ms, max ${q(ms, 1)} ms; mesh-only measures: median ${q(mm, 0.5)} ms`);
}

const pct = (v: number) => `${(100 * v).toFixed(0)}%`;

async function main() {
  if (!existsSync(path.join(testdata, 'labels.json'))) {
    console.error(`quality-face-geometry: no shared test data at ${testdata} (set ATELIER_TESTDATA); nothing measured.`);
    process.exit(1);
  }
  const samples = await collect();
  const dump = process.argv.indexOf('--dump');
  if (dump > 0) writeFileSync(process.argv[dump + 1], JSON.stringify(samples.map((s) => ({ key: s.key, half: s.half, label: s.label, x: s.x, happy: s.happy, pose: s.face.pose }))));
  if (process.argv.includes('--fit')) fit(samples);
  else evaluate(samples);
  void logit;
}

await main();
