import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { EffectPanel } from '../components/effect-panel.tsx';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';

function PickImage({ onFile, onCheck }: ImageInputProps) {
  return (
    <button type="button" onClick={() => { onFile(new File([new Uint8Array([1])], 'person.jpg', { type: 'image/jpeg' })); onCheck([]); }}>
      Pick photo
    </button>
  );
}

const renderApparel = (onRecord = vi.fn()) =>
  renderWithQuery(<EffectPanel endpoint={endpoints.apparelBackgroundRemoval} available ImageInput={PickImage} onRecord={onRecord} />);
const note = () => screen.getByRole('note', { name: 'Results of a run' }).textContent;

beforeEach(() => usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined }));
afterEach(() => vi.unstubAllGlobals());

describe('Apparel panel', () => {
  it('explains out_mode in words and offers every garment class as a toggle', () => {
    renderApparel();
    const mode = screen.getByRole('radiogroup', { name: 'Output mode' });
    const [all, only] = within(mode).getAllByRole('radio');
    // The 0/1 sent shows only in the developer view.
    expect(all.textContent).toBe('All clothingThe main cutout keeps every garment the person wears.');
    expect(only.textContent).toBe('Only the selected classesThe main cutout keeps only the garment classes chosen below.');
    expect(within(mode).getByRole('radio', { name: /All clothing/ }).getAttribute('aria-checked')).toBe('true');
    const classes = screen.getByRole('group', { name: 'Garment classes' });
    expect(within(classes).getAllByRole('button').map((b) => b.textContent)).toEqual(['tops', 'coat', 'skirt', 'pants', 'bag', 'shoes', 'hat']);
    expect(note()).toContain('2 results: one cutout of all the clothing, then one per class (tops)');
  });

  it('counts one result per chosen class, and warns when none is chosen', () => {
    renderApparel();
    fireEvent.click(screen.getByRole('button', { name: 'pants', pressed: false }));
    fireEvent.click(screen.getByRole('button', { name: 'bag', pressed: false }));
    fireEvent.click(screen.getByRole('radio', { name: /Only the selected classes/ }));
    expect(note()).toContain('4 results: one cutout of the selected classes together, then one per class (tops, pants, bag)');
    for (const c of ['tops', 'pants', 'bag']) fireEvent.click(screen.getByRole('button', { name: c, pressed: true }));
    expect(note()).toContain('No class chosen: the engine uses its default, tops.');
  });

  it('sends out_mode as 0/1 and the classes in the contract order', async () => {
    const fetch = vi.fn(async (url: string, _init?: RequestInit) =>
      url.startsWith('/api/')
        ? new Response(JSON.stringify({ request_id: 'r', log_id: 'l', error_detail: { code: '', code_message: '', message: '' }, data: { elements: [{ image_url: '/results/a.png' }, { class_url: { tops: '/results/t.png', pants: '/results/p.png' } }] } }), { status: 200 })
        : new Response(new Uint8Array([1]), { headers: { 'content-type': 'image/png' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const onRecord = vi.fn();
    renderApparel(onRecord);
    fireEvent.click(screen.getByRole('button', { name: 'Pick photo' }));
    fireEvent.click(screen.getByRole('button', { name: 'pants', pressed: false }));
    fireEvent.click(screen.getByRole('radio', { name: /Only the selected classes/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(onRecord).toHaveBeenCalled());
    const body = fetch.mock.calls[0][1]!.body as FormData;
    expect([body.get('out_mode'), body.get('cloth_class')]).toEqual(['1', 'tops,pants']);
    const outcome = onRecord.mock.calls[0][0].outcome;
    expect(outcome.results.map((r: { label: string }) => r.label)).toEqual(['All garments', 'tops', 'pants']);
  });
});
