/**
 * Whether a result image is empty: a garment class the photo does not show comes back fully transparent
 * (default form), all black (mask) or all white (whiteBK). Pixels are counted as content by the form's own
 * rule; a handful of stray pixels (under 0.05% of the image) still reads as "not found".
 */
export type ResultForm = 'transparent' | 'mask' | 'whiteBK';

export interface PixelData { data: Uint8ClampedArray | Uint8Array; width: number; height: number }

export interface Blankness {
  blank: boolean;
  /** Pixels counted as content. */
  content: number;
  total: number;
  /** Bounds of the content pixels, in image pixels; undefined when there are none. */
  bounds?: { x: number; y: number; width: number; height: number };
}

// Alpha or mask values at or under this are seams and haze, not a garment.
const FLOOR = 16;
// whiteBK: a pixel this close to white on every channel is background.
const WHITE = 250;
export const STRAY_SHARE = 0.0005;

export const resultForm = (returnForm: string | undefined): ResultForm =>
  returnForm === 'mask' ? 'mask' : returnForm === 'whiteBK' ? 'whiteBK' : 'transparent';

const isContent = (d: PixelData['data'], i: number, form: ResultForm) => {
  if (form === 'transparent') return d[i + 3] > FLOOR;
  if (form === 'mask') return d[i] > FLOOR;
  return d[i + 3] > FLOOR && (d[i] < WHITE || d[i + 1] < WHITE || d[i + 2] < WHITE);
};

/** RGBA pixels → blank or not, with the content's count and bounds. */
export function blankness({ data, width, height }: PixelData, form: ResultForm): Blankness {
  let content = 0;
  let minX = width, minY = height, maxX = -1, maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!isContent(data, (y * width + x) * 4, form)) continue;
      content++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  const total = width * height;
  return {
    blank: content <= total * STRAY_SHARE,
    content,
    total,
    bounds: content > 0 ? { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 } : undefined,
  };
}
