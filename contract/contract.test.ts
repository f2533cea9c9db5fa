import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpointList, endpoints } from './index.ts';
import { groups } from './groups.ts';
import { errorCodes, type CodedError } from './errors.ts';
import { validateFields } from './validate.ts';

describe('contract', () => {
  it('lists every endpoint file once, each at its own path under its group prefix', () => {
    const files = fs.readdirSync(new URL('./endpoints/', import.meta.url)).filter((f) => f.endsWith('.ts'));
    expect(endpointList.map((e) => `${e.slug}.ts`).sort()).toEqual(files.sort());
    expect(new Set(endpointList.map((e) => e.path)).size).toBe(endpointList.length);
    for (const e of endpointList) {
      const group = groups.find((g) => g.id === e.group)!;
      expect(e.path.startsWith(group.prefix), e.slug).toBe(true);
      expect(e.path.endsWith(`/${e.slug}`), e.slug).toBe(true);
    }
  });

  it('has defaults inside the allowed values', () => {
    for (const e of endpointList) {
      for (const [name, f] of Object.entries(e.fields)) {
        if (f.kind === 'enum' && f.default !== undefined) expect(f.values, `${e.slug}.${name}`).toContain(f.default);
        if ((f.kind === 'int' || f.kind === 'number') && f.default !== undefined) {
          expect(f.default, `${e.slug}.${name}`).toBeGreaterThanOrEqual(f.min);
          expect(f.default, `${e.slug}.${name}`).toBeLessThanOrEqual(f.max);
        }
        if (f.kind === 'image') expect(f.limits.minSide).toBeLessThanOrEqual(f.limits.maxSide);
      }
    }
  });

  it('keeps the interface\'s image limits (docs/interface.md#image-limits)', () => {
    const img = (e: { fields: Record<string, unknown> }) => e.fields.image as { limits: { maxBytes: number; maxSide: number; formats: readonly string[] } };
    expect(img(endpoints.commodityBackgroundRemoval).limits).toMatchObject({ maxBytes: 3 * 1024 * 1024, maxSide: 1999, formats: ['jpeg', 'png', 'bmp'] });
    expect(img(endpoints.apparelBackgroundRemoval).limits).toMatchObject({ maxBytes: 5 * 1024 * 1024, maxSide: 2999 });
    expect(img(endpoints.smartSkinAdvanced).limits).toMatchObject({ maxBytes: 10 * 1024 * 1024, maxSide: 4095, formats: ['jpeg', 'png', 'webp'] });
    expect(img(endpoints.aiRedLipGloss).limits.formats).toEqual(['jpeg', 'png']);
  });

  it('maps every error code to a non-200 status', () => {
    for (const [code, { status }] of Object.entries(errorCodes)) expect(status, code).toBeGreaterThanOrEqual(400);
  });
});

describe('validateFields', () => {
  const fail = (fn: () => unknown) => { try { fn(); } catch (e) { return e as CodedError; } throw new Error('did not throw'); };

  it('applies defaults and parses values', () => {
    expect(validateFields(endpoints.faceBeauty, { smooth: '0.8' }, new Set(['image']))).toEqual({ sharp: 0.3, smooth: 0.8, white: 0.3 });
    expect(validateFields(endpoints.smartSkinAdvanced, { acne_removal: '1' }, new Set(['image'])).acne_removal).toBe(1);
    expect(validateFields(endpoints.apparelBackgroundRemoval, { cloth_class: 'tops, pants,tops' }, new Set(['image'])).cloth_class).toEqual(['tops', 'pants']);
  });

  it('names missing and wrong fields with what is allowed', () => {
    expect(fail(() => validateFields(endpoints.imageCropping, { width: '100' }, new Set(['image']))).code).toBe('MISSING_PARAMETERS');
    const e = fail(() => validateFields(endpoints.imageCropping, { width: '100', height: '5000' }, new Set(['image'])));
    expect(e.code).toBe('ERROR_INVALID_PARAMETER');
    expect(e.message).toContain('height: expected an integer from 1 to 4096, got "5000"');
    expect(fail(() => validateFields(endpoints.faceBeauty, { white: 'lots' }, new Set(['image']))).message).toContain('white');
    expect(fail(() => validateFields(endpoints.apparelBackgroundRemoval, { cloth_class: 'tops,socks' }, new Set(['image']))).message).toContain('socks');
  });

  it('needs one of the beard sources, and accepts either', () => {
    expect(fail(() => validateFields(endpoints.aiBeardStyling, {}, new Set(['image']))).message).toContain('beard or image_template');
    expect(validateFields(endpoints.aiBeardStyling, {}, new Set(['image', 'image_template']))).toEqual({});
    expect(fail(() => validateFields(endpoints.aiBeardStyling, { beard: 'Mullet' }, new Set(['image']))).code).toBe('ERROR_INVALID_PARAMETER');
  });

  it('checks lip colours as JSON', () => {
    const ok = validateFields(endpoints.lipsColorChanger, { lip_color_infos: '[{"rgba":{"r":200,"g":20,"b":60,"a":70}}]' }, new Set(['image']));
    expect(ok.lip_color_infos).toEqual([{ rgba: { r: 200, g: 20, b: 60, a: 70 } }]);
    expect(fail(() => validateFields(endpoints.lipsColorChanger, { lip_color_infos: '[{"rgba":{"r":300,"g":0,"b":0,"a":50}}]' }, new Set(['image']))).message).toContain('rgba');
    expect(fail(() => validateFields(endpoints.lipsColorChanger, { lip_color_infos: 'red' }, new Set(['image']))).code).toBe('ERROR_INVALID_PARAMETER');
  });
});

describe('result shapes', () => {
  it('async endpoints answer a task id and keep named images; sync endpoints never answer one', async () => {
    const { imageLeaves, isLeaf } = await import('./result.ts');
    for (const e of endpointList) {
      const leaves: string[] = [];
      const walk = (s: unknown) => {
        if (isLeaf(s as never)) leaves.push((s as { from: string }).from);
        else Object.values(s as object).forEach(walk);
      };
      walk(e.result.shape);
      if (e.mode === 'async') {
        expect(leaves, e.slug).toEqual(['task_id']);
        expect(e.result.taskImages?.length, e.slug).toBeGreaterThan(0);
      } else {
        expect(leaves, e.slug).not.toContain('task_id');
        expect(e.result.taskImages, e.slug).toBeUndefined();
      }
      if (e.mode === 'sync' && e.group !== 'portrait-analysis') expect(imageLeaves(e.result.shape).length, e.slug).toBeGreaterThan(0);
    }
  });
});
