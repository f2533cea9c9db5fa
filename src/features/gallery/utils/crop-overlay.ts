/**
 * Where smart crop's retain_location (input pixels) lies on the original as the stage shows it: the photo is
 * drawn `object-fit: contain` in a frame of another shape, so it is scaled by one factor and centred, with
 * empty bands on two sides (letterboxing). Pure geometry, so it can be tested without a layout engine.
 */
export interface Rect { x: number; y: number; width: number; height: number }
export interface Size { width: number; height: number }

/** The rectangle an object-contain image of `natural` size occupies inside a `frame`, in frame pixels. */
export function containRect(natural: Size, frame: Size): Rect & { scale: number } {
  if (natural.width <= 0 || natural.height <= 0 || frame.width <= 0 || frame.height <= 0) return { x: 0, y: 0, width: 0, height: 0, scale: 0 };
  const scale = Math.min(frame.width / natural.width, frame.height / natural.height);
  const width = natural.width * scale;
  const height = natural.height * scale;
  return { x: (frame.width - width) / 2, y: (frame.height - height) / 2, width, height, scale };
}

/** retain_location clipped to the image, then mapped to frame pixels. */
export function retainToDisplay(loc: Rect, natural: Size, frame: Size): Rect {
  const img = containRect(natural, frame);
  const x0 = Math.min(Math.max(loc.x, 0), natural.width);
  const y0 = Math.min(Math.max(loc.y, 0), natural.height);
  const x1 = Math.min(Math.max(loc.x + loc.width, 0), natural.width);
  const y1 = Math.min(Math.max(loc.y + loc.height, 0), natural.height);
  return { x: img.x + x0 * img.scale, y: img.y + y0 * img.scale, width: (x1 - x0) * img.scale, height: (y1 - y0) * img.scale };
}

/** Whether the four numbers are a usable window (finite, positive size). */
export const isRect = (v: unknown): v is Rect => {
  const r = v as Record<string, unknown> | null;
  return !!r && ['x', 'y', 'width', 'height'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k])) && (r.width as number) > 0 && (r.height as number) > 0;
};

/** The share of the original the window keeps, for a caption ("keeps 64% of the photo"). */
export const keptShare = (loc: Rect, natural: Size): number =>
  natural.width > 0 && natural.height > 0 ? (loc.width * loc.height) / (natural.width * natural.height) : 0;
