/**
 * Where the garment model's classing goes wrong, for scripts/train/apparel.ts: confusions by true and model class
 * (the check half by the written model, or the fit half by the folds' held-out probabilities), and the fit photos
 * whose skirt and trousers the folds' models swapped most.
 */
import { type ApparelModel, classesOf, MODEL_CLASSES, predictRegions, SMOOTHING } from '../../engine/for-scripts.ts';
import { type PhotoRows, SLOTS } from './apparel-rows.ts';

/** What these read of a training run: its photos' rows, the fit half's photos with a person and their folds, the lower-garment vote. */
export interface Run { data: PhotoRows[]; fitPeople: PhotoRows[]; foldOf: Map<PhotoRows, number>; vote: boolean }

const K = MODEL_CLASSES.length;

/**
 * Pixels on the matte by true class (rows) and the model's class (columns), in thousands: the check half by
 * the written model, or (--confusion) the fit half by the folds' held-out probabilities.
 */
export function confusion(run: Run, name: string, m: ApparelModel | Map<PhotoRows, Float32Array>) {
  const { data, vote } = run;
  const c = new Float64Array(K * K);
  for (const d of data.filter((e) => e.half === (m instanceof Map ? 'fit' : 'check') && e.person)) {
    const p = m instanceof Map ? m.get(d)! : predictRegions(m, d.rows, d.count, d.neighbours);
    const cls = classesOf(p, d.rows, d.count, d.neighbours, SMOOTHING, m instanceof Map ? null : m.bias, vote);
    for (let i = 0; i < d.count; i++) for (let t = 0; t < K; t++) c[t * K + cls[i]] += d.onMatte[i * SLOTS + t];
  }
  console.log(`${name}, true \\ model (k pixels): ${MODEL_CLASSES.map((n) => n.padStart(6)).join('')}`);
  MODEL_CLASSES.forEach((n, t) => console.log(`${n.padStart(34)} ${MODEL_CLASSES.map((_, k) => (c[t * K + k] / 1000).toFixed(0).padStart(6)).join('')}`));
}

/** Per fit photo, held out: labelled skirt pixels on the matte called pants and pants called skirt; the worst 16. */
export function lowerFailures(run: Run, probabilities: Map<PhotoRows, Float32Array>) {
  const { fitPeople, foldOf, vote } = run;
  const skirt = MODEL_CLASSES.indexOf('skirt'), pants = MODEL_CLASSES.indexOf('pants');
  const rows = fitPeople.map((d) => {
    const cls = classesOf(probabilities.get(d)!, d.rows, d.count, d.neighbours, SMOOTHING, null, vote);
    let skirtAsPants = 0, pantsAsSkirt = 0, skirtHit = 0, skirtAll = 0;
    for (let i = 0; i < d.count; i++) {
      const s = d.onMatte[i * SLOTS + skirt], p = d.onMatte[i * SLOTS + pants];
      skirtAll += s;
      if (cls[i] === pants) skirtAsPants += s; else if (cls[i] === skirt) { pantsAsSkirt += p; skirtHit += s; }
    }
    return { d, skirtAsPants, pantsAsSkirt, skirtHit, skirtAll };
  }).sort((a, b) => b.skirtAsPants + b.pantsAsSkirt - a.skirtAsPants - a.pantsAsSkirt);
  for (const r of rows.slice(0, 16)) console.log(`  fold ${foldOf.get(r.d)} ${r.d.rel}: skirt ${r.skirtAll} px (${r.skirtHit} right, ${r.skirtAsPants} as pants), pants as skirt ${r.pantsAsSkirt}`);
}
