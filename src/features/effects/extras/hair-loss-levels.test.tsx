import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { EffectPanel } from '../components/effect-panel.tsx';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';

const NoImage = (_: ImageInputProps) => null;
beforeEach(() => usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined }));

describe('Hair loss panel', { timeout: 20_000 }, () => {
  it('shows the level as a strip of man and woman stages 1 to 7, not a select', () => {
    renderWithQuery(<EffectPanel endpoint={endpoints.aiHairLossSimulation} available ImageInput={NoImage} />);
    expect(screen.queryByRole('combobox')).toBeNull();
    const strip = screen.getByRole('radiogroup', { name: /Stage/ });
    const man = within(strip).getByRole('group', { name: /^Man/ }), woman = within(strip).getByRole('group', { name: /^Woman/ });
    expect(within(man).getAllByRole('radio').map((b) => b.getAttribute('aria-label'))).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `Man ${n}`));
    expect(within(woman).getAllByRole('radio')).toHaveLength(7);
    fireEvent.click(within(woman).getByRole('radio', { name: 'Woman 4' }));
    expect(within(woman).getByRole('radio', { name: 'Woman 4' }).getAttribute('aria-checked')).toBe('true');
    expect(within(strip).getAllByRole('radio', { checked: true })).toHaveLength(1);
    // Arrow keys move along the strip: right to the next stage, up to the man's row.
    fireEvent.keyDown(strip, { key: 'ArrowRight' });
    expect(within(woman).getByRole('radio', { name: 'Woman 5' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(strip, { key: 'ArrowUp' });
    expect(within(man).getByRole('radio', { name: 'Man 5' }).getAttribute('aria-checked')).toBe('true');
    const values = usePanelStore.getState().values;
    expect(JSON.stringify(values)).toContain('man_5');
  });
});
