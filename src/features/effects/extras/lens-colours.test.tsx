import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { EffectPanel } from '../components/effect-panel.tsx';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';
import { LENS_SWATCHES } from './lens-colours.tsx';

const NoImage = (_: ImageInputProps) => null;
beforeEach(() => usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined }));

describe('Coloured contacts panel', { timeout: 20_000 }, () => {
  it('offers common lens colours that fill the name, and keeps free text for name and description', () => {
    renderWithQuery(<EffectPanel endpoint={endpoints.aiColoredContacts} available ImageInput={NoImage} />);
    const swatches = screen.getByRole('group', { name: 'Lens colours' });
    expect(within(swatches).getAllByRole('button').map((b) => b.textContent)).toEqual(LENS_SWATCHES.map((s) => s.name));
    const name = screen.getByRole('textbox', { name: /Lens name/ }) as HTMLInputElement;
    fireEvent.click(within(swatches).getByRole('button', { name: 'Ocean blue' }));
    expect(name.value).toBe('Ocean blue');
    expect(within(swatches).getByRole('button', { name: 'Ocean blue' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.change(name, { target: { value: 'amber with a dark ring' } });
    expect(within(swatches).queryByRole('button', { pressed: true })).toBeNull();
    expect(screen.getByLabelText('Description')).toBeTruthy();
  });
});
