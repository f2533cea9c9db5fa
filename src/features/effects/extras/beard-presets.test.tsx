import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { beardPresets } from '../../../../contract/endpoints/ai-beard-styling.ts';
import { endpoints } from '../../../../contract/index.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { EffectPanel } from '../components/effect-panel.tsx';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';
import { BEARD_PREVIEWS } from './beard-previews.ts';
import { presetLabel } from './beard-presets.tsx';

const NoImage = (_: ImageInputProps) => <p>image input</p>;
beforeEach(() => usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined }));

describe('Beard styling panel', { timeout: 20_000 }, () => {
  it('offers the 24 presets as drawn previews, one chosen at a time, and keeps the template photo input', () => {
    renderWithQuery(<EffectPanel endpoint={endpoints.aiBeardStyling} available ImageInput={NoImage} />);
    const picker = screen.getByRole('group', { name: 'Beard presets' });
    const buttons = within(picker).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(beardPresets.map(presetLabel));
    // Each preview draws its own preset's parts over the face (outline, brows, eyes, nose, lips).
    buttons.forEach((b, i) => expect(b.querySelectorAll('path').length).toBe(5 + BEARD_PREVIEWS[beardPresets[i]].length));
    fireEvent.click(within(picker).getByRole('button', { name: 'Van dyke' }));
    expect(within(picker).getByRole('button', { name: 'Van dyke' }).getAttribute('aria-pressed')).toBe('true');
    expect(usePanelStore.getState().values['ai-beard-styling']?.beard).toBe('VanDyke');
    fireEvent.click(within(picker).getByRole('button', { name: 'Goatee' }));
    expect(within(picker).queryAllByRole('button', { pressed: true }).map((b) => b.textContent)).toEqual(['Goatee']);
    fireEvent.click(within(picker).getByRole('button', { name: 'Goatee' }));
    expect(within(picker).queryByRole('button', { pressed: true })).toBeNull();
    // Photo and template photo: two image inputs.
    expect(screen.getAllByText('image input')).toHaveLength(2);
  });
});
