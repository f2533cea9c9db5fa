/**
 * Target sizes for the smart crop. The crop answer is always exactly width × height, so an aspect preset has
 * to pick pixels too: the largest window of that shape inside the photo (the photo's own resolution, nothing
 * scaled), or 1080 px on the short side while the photo's size is not known. Social sizes are exact pixels.
 */
export interface Size { width: number; height: number }
export interface AspectPreset { label: string; a: number; b: number; hint: string }
export interface SizePreset { label: string; width: number; height: number }

export const aspectPresets: readonly AspectPreset[] = [
  { label: '1:1', a: 1, b: 1, hint: 'Square' },
  { label: '4:5', a: 4, b: 5, hint: 'Portrait' },
  { label: '3:2', a: 3, b: 2, hint: 'Photo' },
  { label: '16:9', a: 16, b: 9, hint: 'Widescreen' },
  { label: '9:16', a: 9, b: 16, hint: 'Vertical' },
];

export const socialPresets: readonly SizePreset[] = [
  { label: 'Square post', width: 1080, height: 1080 },
  { label: 'Portrait post', width: 1080, height: 1350 },
  { label: 'HD landscape', width: 1920, height: 1080 },
  { label: 'Story / reel', width: 1080, height: 1920 },
];

const BASE = 1080;
const MAX = 4096;
const clamp = (n: number) => Math.min(MAX, Math.max(1, Math.round(n)));

/** Width and height for an aspect preset: the largest a:b window of the photo, as the engine sizes it. */
export function sizeForAspect(p: Pick<AspectPreset, 'a' | 'b'>, photo?: Size): Size {
  const aspect = p.a / p.b;
  if (!photo || photo.width < 1 || photo.height < 1) {
    return aspect >= 1 ? { width: clamp(BASE * aspect), height: BASE } : { width: BASE, height: clamp(BASE / aspect) };
  }
  return photo.width / photo.height > aspect
    ? { width: clamp(photo.height * aspect), height: clamp(photo.height) }
    : { width: clamp(photo.width), height: clamp(photo.width / aspect) };
}

/** Whether width × height has the a:b shape, up to the one pixel rounding can cost. */
export const hasAspect = (s: Partial<Size>, p: Pick<AspectPreset, 'a' | 'b'>): boolean =>
  typeof s.width === 'number' && typeof s.height === 'number' && s.width > 0 && s.height > 0 && Math.abs(s.width * p.b - s.height * p.a) <= Math.max(p.a, p.b);

const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));

/** "4:5", or the nearest preset's name with ≈ when rounding made the exact ratio unreadable (910×512 ≈ 16:9). */
export function ratioLabel(s: Size): string {
  const near = aspectPresets.find((p) => hasAspect(s, p));
  const g = gcd(s.width, s.height);
  const exact = `${s.width / g}:${s.height / g}`;
  if (near && exact !== near.label) return `≈ ${near.label}`;
  return s.width / g <= 64 && s.height / g <= 64 ? exact : `${(s.width / s.height).toFixed(2)}:1`;
}
