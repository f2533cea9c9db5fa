/** The lips under a dense moustache, given back their colour after the beard's removal. */
import { blurPlane } from '../../image/frequency.ts';
import { removalTuning } from './tuning.ts';

/**
 * A dense moustache over the lip line leaves the upper lip's vermilion hair-dark (the mask stops at the
 * lips' outline, so the lips keep their own pixels): those of its pixels darker and less red than the lip
 * that shows take that lip's colour, shaded by the photo's broad lightness there (the lip's own modelling,
 * dimmed: the hair's darkness is not the lip's). The hair is told from the lip by a little above the
 * visible lip's median lightness; the restored lip takes a little below it (an upper lip faces away from the
 * light, the lower one that shows catches it) and its median colour, and the restored
 * lip meets the skin fill around it through a feather of `lipEdge` face widths (a vermilion border is soft,
 * not a cut), the hair on the outline replaced in full. Nothing happens where no lip shows redder than the
 * skin. In place on `out` and `alpha`.
 */
export function restoreLips(planes: Float32Array[], out: Float32Array[], alpha: Float32Array, filled: Float32Array, vermilion: Float32Array, w: number, h: number, faceWidth: number, skinA: number): void {
  const T = removalTuning, n = w * h;
  const [L, a, b] = planes;
  const lip: number[] = [];
  for (let i = 0; i < n; i++) if (vermilion[i] > 0.5 && !filled[i]) lip.push(i);
  if (lip.length < 8) return;
  // The lip that shows: redder than the skin (not hair, not teeth).
  const redder = lip.filter((i) => a[i] >= skinA + T.lipRed + 1);
  if (redder.length < 8) return;
  const quantile = (p: Float32Array, q: number) => redder.map((i) => p[i]).sort((x, y) => x - y)[Math.min(redder.length - 1, Math.floor(q * redder.length))];
  const refL = quantile(L, T.lipRef), toneL = quantile(L, T.lipTone), refA = quantile(a, 0.5), refB = quantile(b, 0.5);
  if (refA < skinA + 2) return;
  // Hair over the lip (the outline's own soft pixels included): darker and less red than the lip that shows.
  const fe = Math.max(1, T.lipEdge * faceWidth);
  const nearFill = blurPlane(filled, w, h, fe);
  const cover = new Float32Array(n);
  let wsum = 0;
  for (let i = 0; i < n; i++) if (vermilion[i] > 0 && !filled[i]) {
    const dark = Math.min(1, Math.max(0, (refL - L[i] - T.lipDark) / T.lipSpan));
    // Hair as red as the lip (a brown moustache) still counts on the outline beside the fill where it is
    // far darker than the lip (inside the lips, a dark red is the mouth's line or corner).
    const deep = Math.min(1, 4 * nearFill[i]) * (refL - L[i] - T.lipDeep) / T.lipSpan;
    const grey = Math.min(1, Math.max(0, (refA - a[i] - T.lipRed) / T.lipSpan, deep));
    cover[i] = dark * grey;
    wsum += cover[i];
  }
  if (wsum === 0) return;
  const logL = Float32Array.from(L, (v) => Math.log(Math.max(1, v + 16)));
  const wgt = Float32Array.from(vermilion, (v, i) => (filled[i] ? 0 : v));
  const sg = Math.max(1, T.lipSigma * faceWidth);
  const num = blurPlane(Float32Array.from(logL, (v, i) => v * wgt[i]), w, h, sg), den = blurPlane(wgt, w, h, sg);
  let lsum = 0;
  const broad = new Float32Array(n);
  for (let i = 0; i < n; i++) if (cover[i] > 0) { broad[i] = num[i] / Math.max(1e-6, den[i]); lsum += cover[i] * broad[i]; }
  const mean = lsum / wsum, base = Math.log(toneL + 16);
  // The feather: the lip's share of each pixel (its outline blurred), the share of the lip near it that is
  // restored (where the lip shows, its own outline stays), and the skin fill carried over the outline's
  // pixels the fill did not reach.
  const share = blurPlane(vermilion, w, h, fe);
  const restored = blurPlane(Float32Array.from(cover, (c, i) => c * vermilion[i]), w, h, fe);
  const reach = blurPlane(cover, w, h, fe);
  const skin = [0, 1, 2].map((c) => blurPlane(Float32Array.from(out[c], (v, i) => v * filled[i]), w, h, 3 * fe));
  const skinW = blurPlane(filled, w, h, 3 * fe);
  for (let i = 0; i < n; i++) {
    if (reach[i] <= 0 && cover[i] <= 0) continue;
    // How much of this pixel is restored lip rather than skin: within the lip, by its hair cover (the lip that
    // shows keeps its pixels); across the outline, by the blurred outline where the lip near it is restored.
    const lipness = Math.min(1, share[i]) * Math.min(1, restored[i] / Math.max(1e-6, share[i]));
    const lipL = Math.exp(base + T.lipShade * ((cover[i] > 0 ? broad[i] : mean) - mean)) - 16;
    if (filled[i]) {
      // The skin fill beside a restored lip takes the lip's colour by the feather's reach into it.
      const t = lipness;
      out[0][i] += t * (lipL - out[0][i]); out[1][i] += t * (refA - out[1][i]); out[2][i] += t * (refB - out[2][i]);
      continue;
    }
    // The lip's pixels by their cover; its outline's soft pixels and the few between it and the fill (the
    // hair there the fill's hole did not reach) in full where a restored lip is near. Only the outline beside
    // the fill: the inner one, at the mouth's opening, keeps the lips' own line.
    const k = Math.max(cover[i], Math.min(1, reach[i] * 2, 4 * nearFill[i]) * (vermilion[i] <= 0.5 ? 1 : 0));
    if (k <= 0) continue;
    const sk = skinW[i] >= 0.05 ? [0, 1, 2].map((c) => skin[c][i] / skinW[i]) : [lipL, refA, refB];
    const t = Math.min(1, share[i]);
    out[0][i] = sk[0] + t * (lipL - sk[0]); out[1][i] = sk[1] + t * (refA - sk[1]); out[2][i] = sk[2] + t * (refB - sk[2]);
    alpha[i] = Math.max(alpha[i], k);
  }
}
