import { describe, expect, it } from 'vitest';
import { aspectPresets, hasAspect, ratioLabel, sizeForAspect, socialPresets } from './crop-sizes.ts';

const preset = (label: string) => aspectPresets.find((p) => p.label === label)!;

describe('crop sizes', () => {
  it('offers the common aspects and the social sizes', () => {
    expect(aspectPresets.map((p) => p.label)).toEqual(['1:1', '4:5', '3:2', '16:9', '9:16']);
    expect(socialPresets.map((p) => `${p.width}×${p.height}`)).toEqual(['1080×1080', '1080×1350', '1920×1080', '1080×1920']);
  });

  it('sizes an aspect as the largest window of the photo, as the engine does', () => {
    const portrait = { width: 910, height: 1137 };
    expect(sizeForAspect(preset('1:1'), portrait)).toEqual({ width: 910, height: 910 });
    expect(sizeForAspect(preset('16:9'), portrait)).toEqual({ width: 910, height: 512 });
    expect(sizeForAspect(preset('9:16'), portrait)).toEqual({ width: 640, height: 1137 });
    expect(sizeForAspect(preset('3:2'), { width: 600, height: 400 })).toEqual({ width: 600, height: 400 });
  });

  it('uses 1080 px on the short side while the photo is unknown', () => {
    expect(sizeForAspect(preset('4:5'))).toEqual({ width: 1080, height: 1350 });
    expect(sizeForAspect(preset('3:2'))).toEqual({ width: 1620, height: 1080 });
    expect(sizeForAspect(preset('9:16'))).toEqual({ width: 1080, height: 1920 });
  });

  it('recognises a shape up to rounding and names it', () => {
    expect(hasAspect({ width: 910, height: 512 }, preset('16:9'))).toBe(true);
    expect(hasAspect({ width: 1080, height: 1080 }, preset('4:5'))).toBe(false);
    expect(hasAspect({ width: undefined, height: 5 }, preset('1:1'))).toBe(false);
    expect(ratioLabel({ width: 1080, height: 1350 })).toBe('4:5');
    expect(ratioLabel({ width: 910, height: 512 })).toBe('≈ 16:9');
    expect(ratioLabel({ width: 1000, height: 333 })).toBe('3.00:1');
  });
});
