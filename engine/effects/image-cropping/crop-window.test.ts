import { describe, expect, it } from 'vitest';
import type { Mask } from '../../image/mask.ts';
import type { Rect } from '../../image/rect.ts';
import { cropWindow, crownOf, massMatters, placeMass, windowSize, type Size, type SubjectFace } from './crop-window.ts';

const inside = (b: Rect, w: Rect) => b.x0 >= w.x0 && b.y0 >= w.y0 && b.x0 + b.w <= w.x0 + w.w && b.y0 + b.h <= w.y0 + w.h;
const faces = (...boxes: Rect[]) => ({ kind: 'faces' as const, faces: boxes.map((box): SubjectFace => ({ box })) });
const box = (x: number, y: number, width: number, height = width): Rect => ({ x0: x, y0: y, w: width, h: height });

describe('windowSize', () => {
  it('is the largest window of the target aspect inside the image', () => {
    expect(windowSize({ width: 1000, height: 500 }, { width: 300, height: 300 })).toEqual({ width: 500, height: 500 });
    expect(windowSize({ width: 1000, height: 500 }, { width: 1600, height: 900 })).toEqual({ width: 889, height: 500 });
    expect(windowSize({ width: 500, height: 1000 }, { width: 90, height: 160 })).toEqual({ width: 500, height: 889 });
    expect(windowSize({ width: 640, height: 480 }, { width: 4, height: 3 })).toEqual({ width: 640, height: 480 });
  });

  it('stays inside the image and on the target aspect for any sizes', () => {
    let seed = 7;
    const rnd = (n: number) => 1 + ((seed = (seed * 16807) % 2147483647) % n);
    for (let i = 0; i < 2000; i++) {
      const image: Size = { width: rnd(2000), height: rnd(2000) }, target: Size = { width: rnd(4096), height: rnd(4096) };
      const w = cropWindow(image, target, faces(box(rnd(image.width) - 1, rnd(image.height) - 1, rnd(200))));
      expect(w.x0).toBeGreaterThanOrEqual(0);
      expect(w.y0).toBeGreaterThanOrEqual(0);
      expect(w.x0 + w.w).toBeLessThanOrEqual(image.width);
      expect(w.y0 + w.h).toBeLessThanOrEqual(image.height);
      // Within rounding: the short side is off by at most half a pixel (or pinned to 1 pixel).
      const aspect = target.width / target.height;
      if (image.width / image.height > aspect) {
        expect(w.h).toBe(image.height);
        if (w.w > 1) expect(Math.abs(w.w - w.h * aspect)).toBeLessThanOrEqual(0.5 + 1e-9);
      } else {
        expect(w.w).toBe(image.width);
        if (w.h > 1) expect(Math.abs(w.h - w.w / aspect)).toBeLessThanOrEqual(0.5 + 1e-9);
      }
    }
  });
});

describe('cropWindow with faces', () => {
  const wide: Size = { width: 1000, height: 500 };
  const tall: Size = { width: 500, height: 1000 };
  const square: Size = { width: 1, height: 1 };

  it('centres a face across the frame', () => {
    const w = cropWindow(wide, square, faces(box(600, 100, 100)));
    expect(w).toEqual({ x0: 400, y0: 0, w: 500, h: 500 });
  });

  it('keeps a face at the image edge whole', () => {
    const f = box(940, 300, 60);
    const w = cropWindow(wide, square, faces(f));
    expect(inside(f, w)).toBe(true);
    expect(w.x0).toBe(500);
  });

  it('puts the eyes on the upper third, with room above the head', () => {
    const f = box(200, 400, 100);
    const w = cropWindow(tall, { width: 16, height: 9 }, faces(f));
    expect(inside(f, w)).toBe(true);
    const eye = f.y0 + 0.4 * f.h;
    expect(Math.abs((eye - w.y0) / w.h - 1 / 3)).toBeLessThan(0.01);
    expect(f.y0 - w.y0).toBeGreaterThan(0.3 * f.h);
  });

  it('does not leave a sky of headroom above a small, full-length figure', () => {
    const f = box(470, 1500, 60);
    const w = cropWindow({ width: 1000, height: 3000 }, square, faces(f));
    expect(inside(f, w)).toBe(true);
    // Hair allowance (half a face) plus at most a twentieth of the window.
    expect(f.y0 - 0.5 * f.h - w.y0).toBeLessThanOrEqual(0.05 * w.h + 1);
    expect(f.y0 - 0.5 * f.h - w.y0).toBeGreaterThanOrEqual(0.05 * w.h - 1);
  });

  it('keeps the chin and cuts into the hair when a face nearly fills the frame', () => {
    const f = box(100, 300, 240, 300);
    const w = cropWindow({ width: 500, height: 1000 }, square, { kind: 'faces', faces: [{ box: f, eye: { x: 220, y: 420 } }] });
    expect(inside(f, w)).toBe(true);
    // Window 500 tall: face 300 + chin allowance 60 fits, the hair allowance of 150 does not.
    expect(w.y0 + w.h).toBe(f.y0 + f.h + 60);
  });

  it('leaves even margins when two faces barely fit side by side', () => {
    const a = box(234, 212, 61, 73), b = box(358, 156, 83, 94);
    const w = cropWindow({ width: 500, height: 375 }, { width: 9, height: 16 }, faces(a, b));
    expect(w.w).toBe(211);
    expect(inside(a, w) && inside(b, w)).toBe(true);
    expect(Math.abs(a.x0 - w.x0 - (w.x0 + w.w - b.x0 - b.w))).toBeLessThanOrEqual(1);
  });

  it('uses the eye position when it is known', () => {
    const f = box(200, 400, 100);
    const w = cropWindow({ width: 500, height: 1000 }, { width: 16, height: 9 }, { kind: 'faces', faces: [{ box: f, eye: { x: 250, y: 430 } }] });
    expect(Math.abs((430 - w.y0) / w.h - 1 / 3)).toBeLessThan(0.01);
  });

  it('keeps every face of a group that fits, centred on the group', () => {
    const group = [box(100, 200, 80), box(300, 180, 90), box(480, 210, 70)];
    const w = cropWindow({ width: 1600, height: 600 }, square, faces(...group));
    for (const f of group) expect(inside(f, w)).toBe(true);
    const mid = (100 + 550) / 2;
    expect(Math.abs(w.x0 + w.w / 2 - mid)).toBeLessThan(20);
  });

  it('keeps the larger face when a wide group cannot fit a narrow frame', () => {
    const big = box(1500, 150, 120);
    const small = [box(200, 200, 50), box(280, 200, 50), box(360, 200, 50)];
    const w = cropWindow({ width: 2000, height: 500 }, { width: 9, height: 16 }, faces(...small, big));
    expect(inside(big, w)).toBe(true);
  });

  it('keeps the heavier cluster when no single face dominates', () => {
    const left = [box(100, 200, 60), box(180, 200, 60), box(260, 200, 60)];
    const right = box(1700, 200, 70);
    const w = cropWindow({ width: 2000, height: 600 }, { width: 9, height: 16 }, faces(right, ...left));
    for (const f of left) expect(inside(f, w)).toBe(true);
  });

  it('moves off a face it cannot keep rather than cutting through it', () => {
    const main = box(300, 200, 100);
    const other = box(850, 200, 100);
    // Window 500 wide: it cannot hold both (300..950) and should not slice the second face.
    const w = cropWindow({ width: 1200, height: 500 }, square, faces(main, other));
    expect(inside(main, w)).toBe(true);
    const cuts = other.x0 < w.x0 + w.w && other.x0 + other.w > w.x0 + w.w;
    expect(cuts).toBe(false);
  });

  it('centres a face too large for the window', () => {
    const f = box(300, 0, 400, 500);
    const w = cropWindow(wide, { width: 1, height: 2 }, faces(f));
    expect(w.w).toBe(250);
    expect(w.x0 + w.w / 2).toBeCloseTo(500, 0);
  });

  it('follows the head when the photo is turned (head up to the left)', () => {
    const f: SubjectFace = { box: box(400, 50, 200), up: 'left' };
    const w = cropWindow({ width: 1000, height: 300 }, { width: 16, height: 9 }, { kind: 'faces', faces: [f] });
    expect(inside(f.box, w)).toBe(true);
    expect(Math.abs((f.box.x0 + 80 - w.x0) / w.w - 1 / 3)).toBeLessThan(0.01);
    // Turned the other way, the eyes go to the right-hand third.
    const g: SubjectFace = { box: box(400, 50, 200), up: 'right' };
    const v = cropWindow({ width: 1000, height: 300 }, { width: 16, height: 9 }, { kind: 'faces', faces: [g] });
    expect(Math.abs((g.box.x0 + 120 - v.x0) / v.w - 2 / 3)).toBeLessThan(0.01);
  });

  it('returns the whole image when it already has the target aspect', () => {
    expect(cropWindow(wide, { width: 200, height: 100 }, faces(box(0, 0, 10)))).toEqual({ x0: 0, y0: 0, w: 1000, h: 500 });
  });
});

describe('cropWindow with a subject mass', () => {
  const profile = (len: number, from: number, to: number): number[] => Array.from({ length: len }, (_, i) => (i >= from && i < to ? 10 : 0));

  it('centres a subject that fits', () => {
    const w = cropWindow({ width: 1000, height: 400 }, { width: 1, height: 1 }, { kind: 'mass', columns: profile(1000, 700, 900), rows: profile(400, 0, 400) });
    expect(w).toEqual({ x0: 600, y0: 0, w: 400, h: 400 });
  });

  it('keeps the most mass when the subject is wider than the window', () => {
    const p = profile(1000, 100, 900);
    for (let i = 700; i < 900; i++) p[i] = 30;
    expect(placeMass(p, 300)).toBeGreaterThanOrEqual(600);
    expect(placeMass(p, 300)).toBeLessThanOrEqual(700);
  });

  it('keeps the top of a subject too tall for the window', () => {
    // A standing figure from 100 to 900, its head (100..200) narrower than its body.
    const p = profile(1000, 100, 900);
    for (let i = 100; i < 200; i++) p[i] = 6;
    const s = placeMass(p, 400, 'top');
    expect(s).toBeLessThanOrEqual(100);
    expect(s).toBeGreaterThanOrEqual(100 - 0.05 * 400);
    // Side to side, the fullest window wins.
    expect(placeMass(p, 400, 'centre')).toBeGreaterThanOrEqual(200);
  });

  it('ignores specks at the far ends', () => {
    const p = profile(1000, 400, 600);
    p[5] = 1;
    expect(placeMass(p, 400)).toBe(300);
  });

  it('centres the window when there is no subject', () => {
    expect(cropWindow({ width: 900, height: 300 }, { width: 1, height: 1 }, { kind: 'none' })).toEqual({ x0: 300, y0: 0, w: 300, h: 300 });
    expect(placeMass(new Array(900).fill(0), 300)).toBe(300);
  });
});

describe('cropWindow with faces and the subject mass', () => {
  /** A standing figure's mass per row: the head (its hair from `top`) narrower than the body, down to `feet`. */
  const figure = (len: number, top: number, neck: number, feet: number) =>
    Array.from({ length: len }, (_, i) => (i < top || i >= feet ? 0 : i < neck ? 60 : 150));
  const flat = (len: number) => new Array(len).fill(1);
  const kept = (rows: number[], w: Rect) => rows.slice(w.y0, w.y0 + w.h).reduce((a, b) => a + b, 0) / rows.reduce((a, b) => a + b, 0);
  const wideTarget: Size = { width: 16, height: 9 };
  const image: Size = { width: 600, height: 1000 };
  // Hair from 70, face 100..170, body down to the feet at 950: far taller than a 16:9 window (338).
  const face = box(270, 100, 60, 70);
  const rows = figure(1000, 70, 175, 950);

  it('keeps the face whole and more of a full-length figure than eyes on the third would', () => {
    const before = cropWindow(image, wideTarget, faces(face));
    const w = cropWindow(image, wideTarget, { ...faces(face), mass: { rows, columns: flat(600) } });
    expect(w.h).toBe(338);
    expect(inside(face, w)).toBe(true);
    // The hair allowance (half the face) is all the room left above the face (less a row or two that
    // weigh under SLACK, where the eyes' third still pulls).
    expect(w.y0).toBeLessThanOrEqual(100 - 35);
    expect(w.y0).toBeGreaterThanOrEqual(100 - 35 - 2);
    expect(kept(rows, w)).toBeGreaterThan(kept(rows, before) + 0.015);
  });

  it('keeps the hair the matte shows, up to a face height above the face', () => {
    // A tall hat: the head reaches 60 pixels above the face box; room for it and a little air.
    const hat = cropWindow(image, wideTarget, { kind: 'faces', faces: [{ box: face, crown: 60 }], mass: { rows: figure(1000, 40, 175, 950), columns: flat(600) } });
    expect(hat.y0).toBeLessThanOrEqual(40);
    expect(hat.y0).toBeGreaterThanOrEqual(40 - 0.1 * 70);
    // Capped: a matte reaching far above the head (a raised arm, a pole) does not lift the window past a face height.
    const far = cropWindow(image, wideTarget, { kind: 'faces', faces: [{ box: face, crown: 500 }], mass: { rows, columns: flat(600) } });
    expect(far.y0).toBeLessThanOrEqual(100 - 70);
    expect(far.y0).toBeGreaterThanOrEqual(100 - 70 - 2);
    // Short hair shown by the matte: less room than the guess, never less than a skull above the brow.
    const short = cropWindow(image, wideTarget, { kind: 'faces', faces: [{ box: face, crown: 0 }], mass: { rows, columns: flat(600) } });
    expect(short.y0).toBeLessThanOrEqual(100 - 21);
    expect(short.y0).toBeGreaterThanOrEqual(100 - 21 - 2);
  });

  it('puts the eyes on the upper third when the whole subject fits either way', () => {
    // Head and shoulders, hair from 240 to the chest at 700: 460 rows in a 600-row window.
    const f = box(200, 300, 200, 220);
    const w = cropWindow(image, { width: 1, height: 1 }, { ...faces(f), mass: { rows: figure(1000, 240, 520, 700), columns: flat(600) } });
    expect(kept(figure(1000, 240, 520, 700), w)).toBe(1);
    expect(Math.abs((f.y0 + 0.4 * f.h - w.y0) / w.h - 1 / 3)).toBeLessThan(0.01);
  });

  it('keeps every face whole, however the mass pulls', () => {
    const pair = [box(100, 100, 80), box(300, 100, 80)];
    // Heavy mass from x = 450 on, which a window holding both faces reaches only in part.
    const columns = Array.from({ length: 2000 }, (_, i) => (i >= 450 ? 100 : 1));
    const w = cropWindow({ width: 2000, height: 500 }, { width: 1, height: 1 }, { ...faces(...pair), mass: { columns, rows: flat(500) } });
    for (const f of pair) expect(inside(f, w)).toBe(true);
    // As far toward the mass as the side allowance (a quarter face) of the left face permits, within SLACK.
    expect(w.x0).toBeLessThanOrEqual(80);
    expect(w.x0).toBeGreaterThanOrEqual(76);
  });

  it('does not cut through a face it cannot keep to hold more mass', () => {
    // A 500 window holds the main face (with its ears) from x = 0 to 270, the other whole never.
    const main = box(300, 200, 120), other = box(750, 200, 100);
    const columns = Array.from({ length: 1200 }, (_, i) => (i >= 600 && i < 800 ? 100 : 1));
    const w = cropWindow({ width: 1200, height: 500 }, { width: 1, height: 1 }, { ...faces(main, other), mass: { columns, rows: flat(500) } });
    expect(inside(main, w)).toBe(true);
    expect(w.x0 + w.w).toBeLessThanOrEqual(other.x0);
  });
});

describe('massMatters', () => {
  const full = [{ box: box(270, 100, 60, 70) }];
  it('says when a matte can move the window', () => {
    expect(massMatters({ width: 600, height: 1000 }, { width: 16, height: 9 }, full)).toBe(true);
    // The target has the image's aspect: there is nothing to place.
    expect(massMatters({ width: 600, height: 1000 }, { width: 300, height: 500 }, full)).toBe(false);
    // A face that fills the window with its hair and chin leaves it no room to move.
    expect(massMatters({ width: 500, height: 1000 }, { width: 1, height: 1 }, [{ box: box(50, 300, 380, 400) }])).toBe(false);
    // No face: the mass is the subject.
    expect(massMatters({ width: 600, height: 1000 }, { width: 16, height: 9 }, [])).toBe(true);
  });

  it('agrees with cropWindow: where it says no, the mass changes nothing', () => {
    let seed = 11;
    const rnd = (n: number) => 1 + ((seed = (seed * 16807) % 2147483647) % n);
    for (let i = 0; i < 300; i++) {
      const image: Size = { width: 100 + rnd(900), height: 100 + rnd(900) }, target: Size = { width: rnd(20), height: rnd(20) };
      const s = 20 + rnd(Math.min(image.width, image.height) - 20);
      const f: SubjectFace = { box: box(rnd(image.width - s) - 1, rnd(image.height - s) - 1, s) };
      if (massMatters(image, target, [f])) continue;
      const mass = { columns: Array.from({ length: image.width }, () => rnd(100)), rows: Array.from({ length: image.height }, () => rnd(100)) };
      expect(cropWindow(image, target, { kind: 'faces', faces: [{ ...f, crown: rnd(s) }], mass })).toEqual(cropWindow(image, target, faces(f.box)));
    }
  });
});

describe('crownOf', () => {
  // A 1000 x 1000 photo, its matte at 100 x 100: the head from y = 250 (hair) over a face box 300..420.
  const matte = (on: (x: number, y: number) => boolean): Mask => {
    const data = new Uint8Array(100 * 100);
    for (let y = 0; y < 100; y++) for (let x = 0; x < 100; x++) data[y * 100 + x] = on(x, y) ? 255 : 0;
    return { data, width: 100, height: 100 };
  };
  const image = { width: 1000, height: 1000 };
  const face: SubjectFace = { box: box(450, 300, 100, 120) };

  it('measures how far the hair reaches above the face, to a matte cell', () => {
    const m = matte((x, y) => x >= 44 && x < 56 && y >= 25 && y < 90);
    expect(Math.abs(crownOf(m, image, face)! - 50)).toBeLessThanOrEqual(10);
    // A bun narrower than the face still counts.
    const bun = matte((x, y) => (x >= 44 && x < 56 && y >= 25 && y < 90) || (x >= 48 && x < 51 && y >= 20 && y < 25));
    expect(Math.abs(crownOf(bun, image, face)! - 100)).toBeLessThanOrEqual(10);
    // It looks no further than a face height (120) out.
    expect(crownOf(matte((x, y) => x >= 44 && x < 56 && y < 90), image, face)).toBeLessThanOrEqual(130);
  });

  it('follows a head turned on its side', () => {
    // The same head turned so its top points left: hair from x = 250 beside a face box 300..420 across.
    const m = matte((x, y) => y >= 44 && y < 56 && x >= 25 && x < 90);
    expect(Math.abs(crownOf(m, image, { box: box(300, 450, 120, 100), up: 'left' })! - 50)).toBeLessThanOrEqual(10);
  });

  it('says nothing when the matte missed the face', () => {
    expect(crownOf(matte(() => false), image, face)).toBeUndefined();
  });
});
