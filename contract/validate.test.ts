/** validateFields on values a fuzzer sends: lip colours' face_rect members of the wrong JSON type, and text lengths in characters. */
import { describe, expect, it } from 'vitest';
import { endpoints } from './index.ts';
import { CodedError } from './errors.ts';
import { validateFields } from './validate.ts';

const fail = (fn: () => unknown): CodedError => {
  try { fn(); } catch (err) { if (err instanceof CodedError) return err; throw err; }
  throw new Error('expected a CodedError');
};

describe('lip_color_infos face_rect', () => {
  const lips = (faceRect: unknown) => validateFields(endpoints.lipsColorChanger,
    { lip_color_infos: JSON.stringify([{ rgba: { r: 200, g: 20, b: 60, a: 70 }, face_rect: faceRect }]) }, new Set(['image']));
  const rect = { x: 10, y: 20, width: 120, height: 130 };

  it('refuses members that are not JSON numbers, naming the member', () => {
    for (const [member, bad] of [['width', '120'], ['width', true], ['height', [130]], ['height', '130'], ['x', '10'], ['y', null], ['width', {}]] as const) {
      const err = fail(() => lips({ ...rect, [member]: bad }));
      expect(err.code).toBe('ERROR_INVALID_PARAMETER');
      expect(err.message, `${member}: ${JSON.stringify(bad)}`).toContain(`lip_color_infos[0].face_rect.${member}`);
    }
  });

  it('refuses missing members and sizes that are not positive, and takes numbers (negative x/y too)', () => {
    expect(fail(() => lips({ x: 1, y: 2, width: 3 })).message).toContain('face_rect.height');
    expect(fail(() => lips({ ...rect, width: 0 })).message).toContain('face_rect.width');
    expect(fail(() => lips({ ...rect, height: -4 })).message).toContain('face_rect.height');
    expect(fail(() => lips([1, 2, 3, 4])).message).toContain('face_rect');
    expect(lips({ x: -5, y: 0, width: 10.5, height: 20 }).lip_color_infos).toEqual([{ rgba: { r: 200, g: 20, b: 60, a: 70 }, face_rect: { x: -5, y: 0, width: 10.5, height: 20 } }]);
  });
});

describe('text lengths', () => {
  const contacts = (desc: string) => validateFields(endpoints.aiColoredContacts, { desc }, new Set(['image']));
  const max = (endpoints.aiColoredContacts.fields.desc as { maxLength: number }).maxLength;

  it('counts characters (code points), not UTF-16 units', () => {
    expect(contacts('👁'.repeat(max)).desc).toBe('👁'.repeat(max)); // 2 UTF-16 units each
    expect(contacts('𝒜'.repeat(600)).desc).toHaveLength(1200);
    expect(fail(() => contacts('👁'.repeat(max + 1))).message).toMatch(/desc/);
    expect(fail(() => contacts('a'.repeat(max + 1))).message).toMatch(/desc/);
    expect(contacts('a'.repeat(max)).desc).toHaveLength(max);
  });
});
