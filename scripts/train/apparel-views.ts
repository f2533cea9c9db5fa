/**
 * Other views of a labelled photo for training the garment model (apparel.ts --augment): the photo and
 * its cached model outputs (scripts/datasets/apparel-cache.ts) mirrored, or cut at the top left so that SLIC's grid falls
 * elsewhere on the same garments. The rules and features are then recomputed on the view as on a photo.
 */
import { type ApparelState as State, type Rect, workSize } from '../../engine/for-scripts.ts';

/**
 * Another view of a photo for training (--augment): `cut` work pixels off its top and left (SLIC's grid then
 * falls elsewhere on the same garments), then mirrored when `flip`.
 */
export interface View { name: string; flip: boolean; cut: number }
/** Half of SLIC's grid step at work size (about 8 px: 70 pixels per region). */
export const VIEWS: Record<string, View> = { flip: { name: 'flip', flip: true, cut: 0 }, shift: { name: 'shift', flip: false, cut: 4 }, flipshift: { name: 'flipshift', flip: true, cut: 4 } };

/** A view's size and how it maps a W x H photo's rasters and model outputs. */
export function viewOf(view: View, W: number, H: number) {
  const d = Math.round(view.cut / workSize(W, H).k);
  const width = W - d, height = H - d;
  // View x (continuous) from photo x, and a box's left edge.
  const vx = (x: number) => (view.flip ? width - (x - d) : x - d);
  const box = (b: Rect): Rect => ({ ...b, x0: view.flip ? width - (b.x0 + b.w - d) : b.x0 - d, y0: b.y0 - d });
  const side = (name: string) => (!view.flip ? name : name.startsWith('left') ? `right${name.slice(4)}` : name.startsWith('right') ? `left${name.slice(5)}` : name);
  const raster = (src: Uint8Array, ch: number) => {
    const out = new Uint8Array(width * height * ch);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) {
      const o = ((y + d) * W + (view.flip ? width - 1 - x : x) + d) * ch, t = (y * width + x) * ch;
      for (let c = 0; c < ch; c++) out[t + c] = src[o + c];
    }
    return out;
  };
  const state = (s: State): State => {
    const heads = s.heads && (() => {
      // Work pixel of the view -> the photo's work pixel under it (nearest), as the parser's lattice samples.
      const { width: w, height: h } = workSize(width, height), sw = s.heads.width, sh = s.heads.height;
      const cols = Int32Array.from({ length: w }, (_, x) => { const ix = Math.floor(((x + 0.5) * width) / w); return Math.min(sw - 1, Math.floor((((view.flip ? width - 1 - ix : ix) + d + 0.5) * sw) / W)); });
      const rows = Int32Array.from({ length: h }, (_, y) => Math.min(sh - 1, Math.floor(((Math.floor(((y + 0.5) * height) / h) + d + 0.5) * sh) / H)));
      const map = (p: Uint8Array) => { const o = new Uint8Array(w * h); for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) o[y * w + x] = p[rows[y] * sw + cols[x]]; return o; };
      return { width: w, height: h, planes: Object.fromEntries(Object.entries(s.heads.planes).map(([c, p]) => [c, map(p)])) as typeof s.heads.planes, covered: map(s.heads.covered) };
    })();
    return {
      alpha: raster(s.alpha!, 1), hair: s.hair && raster(s.hair, 1), heads,
      faces: s.faces!.map((f) => ({
        ...f, box: box(f.box), mesh: f.mesh?.map(([x, y, z]) => [vx(x), y - d, z] as [number, number, number]),
        pose: f.pose && (view.flip ? { ...f.pose, yaw: -f.pose.yaw, roll: -f.pose.roll } : f.pose),
        rotation: view.flip && (f.rotation === 90 || f.rotation === 270) ? (360 - f.rotation) as 90 | 270 : f.rotation,
      })),
      points: s.points!.map((p) => ({ ...p, name: side(p.name), x: vx(p.x), y: p.y - d })),
      objects: s.objects!.map((o) => ({ ...o, box: box(o.box) })),
    };
  };
  return { width, height, raster, state };
}
