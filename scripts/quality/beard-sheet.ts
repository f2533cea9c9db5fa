/**
 * Contact sheet of beard presets on a few portraits: each face's lower half, cropped around the mesh,
 * one row per face, one column per preset (labelled), for beard-styling.ts (--sheet DIR).
 */
import sharp, { type OverlayOptions } from 'sharp';
import { type Face, type RasterImage } from '../../engine/for-scripts.ts';

export interface SheetRow { label: string; face: Face; before: RasterImage; after: Map<string, RasterImage> }

const TILE = 220;

/** The square crop around a face's lower half and neck, within the photo. */
export function beardCrop(face: Face, img: { width: number; height: number }) {
  const m = face.mesh!;
  const fw = Math.hypot(m[454][0] - m[234][0], m[454][1] - m[234][1]);
  const side = Math.round(Math.min(img.width, img.height, 1.45 * fw));
  const cx = m[13][0], cy = m[13][1] + 0.12 * fw;
  const left = Math.round(Math.min(Math.max(0, cx - side / 2), img.width - side));
  const top = Math.round(Math.min(Math.max(0, cy - side / 2), img.height - side));
  return { left, top, width: side, height: side };
}

const labelSvg = (text: string, w: number) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="18"><rect width="100%" height="100%" fill="#222"/><text x="4" y="13" font-family="sans-serif" font-size="12" fill="#fff">${text}</text></svg>`);

async function tile(img: RasterImage, crop: ReturnType<typeof beardCrop>): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } }).extract(crop).resize(TILE, TILE).png().toBuffer();
}

/** Writes the sheet: columns "before" then each name; `perRow` columns per band (rows wrap into bands). */
export async function writeSheet(file: string, rows: SheetRow[], names: string[], perRow = 9) {
  const cols = ['before', ...names];
  const bands = Math.ceil(cols.length / perRow);
  const cellH = TILE + 18;
  const width = perRow * TILE, height = bands * rows.length * cellH;
  const over: OverlayOptions[] = [];
  for (let b = 0; b < bands; b++) {
    rows.forEach((row, r) => {
      const crop = beardCrop(row.face, row.before);
      cols.slice(b * perRow, (b + 1) * perRow).forEach((name, k) => {
        const img = name === 'before' ? row.before : row.after.get(name);
        if (!img) return;
        const x = k * TILE, y = (b * rows.length + r) * cellH;
        over.push({ input: labelSvg(`${row.label} ${name}`, TILE), left: x, top: y });
        over.push({ input: tile(img, crop) as unknown as Buffer, left: x, top: y + 18 });
      });
    });
  }
  const resolved = await Promise.all(over.map(async (o) => ({ ...o, input: await o.input })));
  await sharp({ create: { width, height, channels: 3, background: '#111' } }).composite(resolved as OverlayOptions[]).png().toFile(file);
}
