import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useState } from 'react';
import { BeforeAfter, FIT } from './before-after.tsx';
import type { View } from './before-after.tsx';

const divider = () => screen.getByRole('slider', { name: 'Before/after divider' });
const afterLayer = () => screen.getByTestId('after-layer');

describe('BeforeAfter', () => {
  it('moves the divider with the keyboard and reveals the result accordingly', () => {
    render(<BeforeAfter beforeUrl="before.png" afterUrl="after.png" />);
    expect(divider().getAttribute('aria-valuenow')).toBe('50');

    fireEvent.keyDown(divider(), { key: 'ArrowRight' });
    expect(divider().getAttribute('aria-valuenow')).toBe('51');
    fireEvent.keyDown(divider(), { key: 'ArrowLeft', shiftKey: true });
    expect(divider().getAttribute('aria-valuenow')).toBe('41');
    expect(afterLayer().style.clipPath).toBe('inset(0 0 0 41%)');

    fireEvent.keyDown(divider(), { key: 'End' });
    expect(divider().getAttribute('aria-valuenow')).toBe('100');
    fireEvent.keyDown(divider(), { key: 'ArrowRight' });
    expect(divider().getAttribute('aria-valuenow')).toBe('100');
    fireEvent.keyDown(divider(), { key: 'Home' });
    expect(divider().getAttribute('aria-valuenow')).toBe('0');
    expect(divider().getAttribute('aria-valuetext')).toBe('0% before, 100% after');
  });

  it('follows the pointer', () => {
    render(<BeforeAfter beforeUrl="before.png" afterUrl="after.png" />);
    const box = divider().parentElement!;
    box.getBoundingClientRect = () => ({ left: 100, width: 400, top: 0, height: 300, right: 500, bottom: 300, x: 100, y: 0, toJSON: () => ({}) });
    fireEvent.pointerDown(box, { clientX: 200, button: 0, pointerId: 1 });
    expect(divider().getAttribute('aria-valuenow')).toBe('25');
    fireEvent.pointerMove(box, { clientX: 400, pointerId: 1 });
    expect(divider().getAttribute('aria-valuenow')).toBe('75');
    fireEvent.pointerUp(box, { pointerId: 1 });
    fireEvent.pointerMove(box, { clientX: 150, pointerId: 1 });
    expect(divider().getAttribute('aria-valuenow')).toBe('75');
  });

  const placeBox = (el: HTMLElement) => {
    el.getBoundingClientRect = () => ({ left: 100, width: 400, top: 0, height: 300, right: 500, bottom: 300, x: 100, y: 0, toJSON: () => ({}) });
  };
  const zoom = () => Number(screen.getByTestId('before-after').dataset.zoom);
  const pan = () => screen.getByTestId('before-after').dataset.pan!.split(',').map(Number);

  it('zooms with a pinch around the fingers, and one finger left on pans on without a jump', () => {
    render(<BeforeAfter beforeUrl="before.png" afterUrl="after.png" />);
    const box = screen.getByTestId('before-after');
    placeBox(box);
    // Two fingers 40 px apart around x 300 (half-way across), spread to 160 px: four times the size.
    fireEvent.pointerDown(box, { clientX: 280, clientY: 150, button: 0, pointerId: 1 });
    fireEvent.pointerDown(box, { clientX: 320, clientY: 150, button: 0, pointerId: 2 });
    fireEvent.pointerMove(box, { clientX: 220, clientY: 150, pointerId: 1 });
    fireEvent.pointerMove(box, { clientX: 380, clientY: 150, pointerId: 2 });
    expect(zoom()).toBeCloseTo(4, 2);
    // The point between the fingers stayed where it was: half-way across, half-way down.
    const [x, y] = pan();
    expect(x + 0.5 * zoom()).toBeCloseTo(0.5, 2);
    expect(y + 0.5 * zoom()).toBeCloseTo(0.5, 2);
    expect(screen.getByTestId('zoom-level').textContent).not.toMatch(/^Fit/);

    fireEvent.pointerUp(box, { pointerId: 2 });
    fireEvent.pointerMove(box, { clientX: 260, clientY: 150, pointerId: 1 });
    expect(pan()[0]).toBeCloseTo(x + 40 / 400, 2);
    fireEvent.pointerUp(box, { pointerId: 1 });
  });

  it('pans with a drag once zoomed in, kept inside the picture, and leaves the divider alone', () => {
    render(<BeforeAfter beforeUrl="before.png" afterUrl="after.png" />);
    const box = screen.getByTestId('before-after');
    placeBox(box);
    fireEvent.doubleClick(box, { clientX: 300, clientY: 150 });
    expect(zoom()).toBe(2);
    expect(pan()).toEqual([-0.5, -0.5]);
    fireEvent.pointerDown(box, { clientX: 200, clientY: 100, button: 0, pointerId: 1 });
    fireEvent.pointerMove(box, { clientX: 240, clientY: 130, pointerId: 1 });
    fireEvent.pointerUp(box, { pointerId: 1 });
    expect(pan()).toEqual([-0.4, -0.4]);
    expect(divider().getAttribute('aria-valuenow')).toBe('50');
    // Dragged far: stops at the picture's edge.
    fireEvent.pointerDown(box, { clientX: 200, clientY: 100, button: 0, pointerId: 1 });
    fireEvent.pointerMove(box, { clientX: 900, clientY: 900, pointerId: 1 });
    expect(pan()).toEqual([0, 0]);
    // Both layers move as one.
    const layers = [screen.getByRole('img', { name: 'Before' }).parentElement!, screen.getByTestId('after-layer').firstElementChild as HTMLElement];
    expect(layers[0].style.transform).toBe('translate(0%, 0%) scale(2)');
    expect(layers[1].style.transform).toBe(layers[0].style.transform);
  });

  it('shares its zoom and divider when they are held outside', () => {
    function Two() {
      const [view, setView] = useState<View>(FIT);
      const [position, setPosition] = useState(50);
      const held = { view, onViewChange: setView, position, onPositionChange: setPosition };
      return (
        <>
          <BeforeAfter beforeUrl="a.png" afterUrl="a-out.png" {...held} />
          <BeforeAfter beforeUrl="b.png" afterUrl="b-out.png" {...held} />
        </>
      );
    }
    render(<Two />);
    const [one, two] = screen.getAllByTestId('before-after');
    placeBox(one);
    fireEvent.doubleClick(one, { clientX: 200, clientY: 100 });
    expect(two.dataset.zoom).toBe('2.000');
    expect(two.dataset.pan).toBe(one.dataset.pan);
    fireEvent.keyDown(screen.getAllByRole('slider')[1], { key: 'End' });
    expect(screen.getAllByRole('slider').map((s) => s.getAttribute('aria-valuenow'))).toEqual(['100', '100']);
  });

  it('opens on the focus (a face) where the whole photo would show at less than half its size, and only then', () => {
    const open = (boxWidth: number) => {
      const { unmount } = render(<BeforeAfter beforeUrl="before.png" afterUrl="after.png" focus={{ x: 1500, y: 600, width: 500, height: 600 }} />);
      const box = screen.getByTestId('before-after');
      box.getBoundingClientRect = () => ({ left: 0, width: boxWidth, top: 0, height: boxWidth * 0.75, right: boxWidth, bottom: boxWidth * 0.75, x: 0, y: 0, toJSON: () => ({}) });
      const img = screen.getByRole('img', { name: 'Before' });
      Object.defineProperty(img, 'naturalWidth', { value: 4000 });
      Object.defineProperty(img, 'naturalHeight', { value: 3000 });
      fireEvent.load(img);
      const view = { zoom: Number(box.dataset.zoom), pan: box.dataset.pan!.split(',').map(Number) };
      unmount();
      return view;
    };
    // A phone: 4000 px in 360 px (9 %). The face fills the box's height (3000 / 600 = 5×), centred on it.
    const phone = open(360);
    expect(phone.zoom).toBe(5);
    expect(phone.pan[0]).toBeCloseTo(0.5 - (1750 / 4000) * 5, 3);
    expect(phone.pan[1]).toBeCloseTo(0.5 - (900 / 3000) * 5, 3);
    // Shown at 60 % already: it opens whole.
    expect(open(2400).zoom).toBe(1);
  });
});
