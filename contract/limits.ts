/** Image limits of the interface (docs/interface.md#image-limits). Sides are inclusive pixel bounds. */
export type ImageFormat = 'jpeg' | 'png' | 'bmp' | 'webp';

export interface ImageLimits {
  formats: readonly ImageFormat[];
  maxBytes: number;
  minSide: number;
  maxSide: number;
  /** PNG bits per pixel that the endpoint refuses (commodity: "8-bit, 16-bit, 64-bit PNG unsupported"). */
  pngRejectBitsPerPixel?: readonly number[];
}

const MB = 1024 * 1024;
const JPB = ['jpeg', 'png', 'bmp'] as const;
const JPW = ['jpeg', 'png', 'webp'] as const;
const ALL = ['jpeg', 'png', 'bmp', 'webp'] as const;

export const limits = {
  apparel: { formats: JPB, maxBytes: 5 * MB, minSide: 51, maxSide: 2999 },
  product: { formats: JPB, maxBytes: 3 * MB, minSide: 1, maxSide: 1999, pngRejectBitsPerPixel: [8, 16, 64] },
  portraitAsync: { formats: JPW, maxBytes: 10 * MB, minSide: 1, maxSide: 4095 },
  portraitAsyncSmall: { formats: ['jpeg', 'png'], maxBytes: 5 * MB, minSide: 1, maxSide: 4095 },
  faceBeauty: { formats: JPB, maxBytes: 3 * MB, minSide: 1, maxSide: 1999 },
  lipsColor: { formats: ALL, maxBytes: 5 * MB, minSide: 1, maxSide: 1999 },
  faceAnalyzer: { formats: JPB, maxBytes: 5 * MB, minSide: 1, maxSide: 1999 },
  cropping: { formats: ALL, maxBytes: 3.5 * MB, minSide: 1, maxSide: 1999 },
  /** Endpoints the interface gives no limits for (docs/interface.md#image-limits). */
  fallback: { formats: ALL, maxBytes: 5 * MB, minSide: 16, maxSide: 4096 },
} as const satisfies Record<string, ImageLimits>;

export const formatLabel: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', bmp: 'BMP', webp: 'WEBP' };

export function describeLimits(l: ImageLimits): string {
  const mb = l.maxBytes / MB;
  return `${l.formats.map((f) => formatLabel[f]).join(', ')}; at most ${mb} MB; each side ${l.minSide}..${l.maxSide} px`;
}
