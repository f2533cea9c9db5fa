import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BeforeAfter } from './before-after.tsx';

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
});
