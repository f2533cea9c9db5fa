/**
 * Panels as a designer reads them (issue 37): plain words outside the developer view, and starting options
 * that show something (every face attribute, a lens colour that shows on brown eyes, the retouch said).
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { faceAttributeTypes } from '../../../../contract/endpoints/face-analyzer.ts';
import { useDevView } from '../../../lib/dev-view.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';
import { EffectPanel } from './effect-panel.tsx';
import { panelEndpoints } from './effect-nav.tsx';

function PickImage({ label, onFile, onCheck }: ImageInputProps) {
  return (
    <button type="button" onClick={() => { onFile(new File([new Uint8Array([1, 2, 3])], 'face.png', { type: 'image/png' })); onCheck([]); }}>
      Pick {label}
    </button>
  );
}

const renderPanel = (endpoint: Endpoint) => renderWithQuery(<EffectPanel endpoint={endpoint} available ImageInput={PickImage} />);
const envelope = { request_id: 'req-1', log_id: 'log-1', error_detail: { code: '', code_message: '', message: '' } };

/** Words of the API that a panel must not show outside the developer view. */
const apiWords = /smart_skin|\b(?:man|woman)_\d|face_attributes_type|face_rect|\{rgba|rgba:|base64|face_maps|image_template|cloth_class|return_form|STUDIO_|ERROR_/;

beforeEach(() => {
  usePanelStore.setState({ values: {}, imageProblems: {}, prepared: {}, lastRun: {}, lastPhoto: undefined });
  useDevView.setState({ on: false });
});
afterEach(() => vi.unstubAllGlobals());

describe('panels speak plainly', () => {
  it.each(panelEndpoints.map((e) => [e.slug, e] as const))('%s: no API words outside the developer view', (_slug, endpoint) => {
    const { container } = renderPanel(endpoint);
    fireEvent.click(screen.getAllByRole('button', { name: /^Pick / })[0]);
    const text = container.textContent ?? '';
    expect(text).not.toMatch(apiWords);
    // No field's technical name either (names with an underscore are never words).
    for (const name of Object.keys(endpoint.fields).filter((n) => n.includes('_'))) expect(text, name).not.toContain(name);
  });

  it('shows the technical names again in the developer view', () => {
    useDevView.setState({ on: true });
    const { container } = renderPanel(endpoints.smartSkinAdvanced);
    expect(container.textContent).toContain('smart_skin=1');
  });
});

describe('starting options that show something', () => {
  it('face analyzer: every attribute is asked for, and sent', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ...envelope, image_width: 10, image_height: 10, face_detail_infos: [] })));
    vi.stubGlobal('fetch', fetch);
    renderPanel(endpoints.faceAnalyzer);
    const attributes = within(document.querySelector('[data-field="face_attributes_type"]') as HTMLElement);
    expect(attributes.getByRole('button', { name: 'None (boxes only)' }).getAttribute('aria-pressed')).toBe('false');
    for (const name of ['Age', 'Emotion', 'Head pose', 'Eyes', 'Smile']) expect(attributes.getByRole('button', { name }).getAttribute('aria-pressed'), name).toBe('true');
    expect(screen.getByText(/All are ticked here/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pick Image' }));
    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const body = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as FormData;
    expect(body.get('face_attributes_type')).toBe(faceAttributeTypes.filter((t) => t !== 'None').join(','));
  });

  it('coloured contacts: starts on violet, which shows on brown eyes, and says why', () => {
    renderPanel(endpoints.aiColoredContacts);
    expect(screen.getByRole('button', { name: 'Violet' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/Violet is chosen to start with because it shows on every eye colour/)).toBeTruthy();
    // Reset comes back to it.
    fireEvent.click(screen.getByRole('button', { name: 'Blue' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('button', { name: 'Violet' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('skin retouch: says the full retouch runs with every switch off, and what runs otherwise', () => {
    renderPanel(endpoints.smartSkinAdvanced);
    const note = () => screen.getByRole('note', { name: 'What will run' }).textContent;
    expect(note()).toMatch(/The full retouch runs: with no switch on, every part is done/);
    fireEvent.click(screen.getByRole('switch', { name: 'Acne removal' }));
    expect(note()).toBe('Only this part runs: Acne removal.');
    fireEvent.click(screen.getByRole('switch', { name: 'Under-eye' }));
    expect(note()).toBe('Only these 2 parts run: Acne removal, Under-eye.');
    fireEvent.click(screen.getByRole('switch', { name: 'Smart skin' }));
    expect(note()).toMatch(/Smart skin does every part/);
  });
});
