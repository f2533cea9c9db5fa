import { describe, expect, it } from 'vitest';
import { readSkinReport, zoneGuide } from './skin-report.ts';

const member = (value: number, confidence = 0.8) => ({ value, confidence });

describe('readSkinReport', () => {
  it('reads every code in words, with its confidence', () => {
    const r = readSkinReport({
      face_rectangle: { top: 50, left: 100, width: 200, height: 240 },
      warning: ['imporper_headpose'],
      result: {
        skin_age: { value: 34.4 },
        skin_type: { skin_type: 3, details: { 0: member(0, 0.1), 1: member(0, 0.1), 2: member(0, 0.2), 3: member(1, 0.6) } },
        skin_color: member(3), left_eyelids: member(1), right_eyelids: member(2), dark_circle: member(1, 0.71),
        eye_pouch: member(0), crows_feet: member(1, 0.66), blackhead: member(2), pores_jaw: member(1),
        acne: { rectangle: [{ left: 10, top: 20, width: 5, height: 6 }], confidence: [0.9] },
        mole: { rectangle: [] },
      },
    });
    expect(r.face).toEqual({ x: 100, y: 50, width: 200, height: 240 });
    expect(r.warnings[0]).toMatch(/more than 45°/);
    const words = Object.fromEntries(r.measures.map((m) => [m.key, m.words]));
    expect(words).toMatchObject({
      skin_age: '34 years', skin_type: 'combination skin', skin_color: 'wheat', left_eyelids: 'parallel double eyelid',
      right_eyelids: 'scalloped double eyelid', dark_circle: 'brownish (pigment)', eye_pouch: 'not seen',
      crows_feet: 'visible', blackhead: 'some', pores_jaw: 'enlarged',
    });
    expect(r.measures.find((m) => m.key === 'skin_type')?.confidence).toBe(0.6);
    expect(r.measures.find((m) => m.key === 'dark_circle')).toMatchObject({ confidence: 0.71, notable: true });
    expect(r.measures.find((m) => m.key === 'eye_pouch')?.notable).toBe(false);
    const acne = r.lesions.find((k) => k.key === 'acne')!;
    expect(acne.rects).toEqual([{ x: 10, y: 20, width: 5, height: 6 }]);
    expect(acne.confidences).toEqual([0.9]);
    expect(r.lesions.map((k) => k.key)).toEqual(['acne', 'closed_comedones', 'mole', 'skin_spot']);
    expect(new Set(r.lesions.map((k) => k.colour)).size).toBe(4);
  });

  it('leaves out what is absent or malformed instead of guessing', () => {
    const r = readSkinReport({ result: { skin_color: { value: 'x' }, acne: { rectangle: [{ left: 1 }] } } });
    expect(r.face).toBeUndefined();
    expect(r.measures).toEqual([]);
    expect(r.lesions.every((k) => k.rects.length === 0)).toBe(true);
    expect(readSkinReport(null)).toEqual({ face: undefined, warnings: [], measures: [], lesions: [] });
  });
});

describe('zoneGuide', () => {
  it('places every zone inside the face rectangle', () => {
    const face = { x: 100, y: 50, width: 200, height: 240 };
    const zones = zoneGuide(face);
    expect(new Set(zones.map((z) => z.name))).toEqual(new Set(['Forehead', 'Glabella', "Crow's feet", 'Under-eye', 'Nose', 'Cheek', 'Nasolabial', 'Chin', 'Jaw']));
    for (const { rect } of zones) {
      expect(rect.x).toBeGreaterThanOrEqual(face.x);
      expect(rect.y).toBeGreaterThanOrEqual(face.y);
      expect(rect.x + rect.width).toBeLessThanOrEqual(face.x + face.width + 1e-9);
      expect(rect.y + rect.height).toBeLessThanOrEqual(face.y + face.height + 1e-9);
    }
  });
});
