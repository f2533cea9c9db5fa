import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { useDevView } from '../../../lib/dev-view.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import type { RunRecord } from '../api/run-effect.ts';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';
import { EffectPanel } from './effect-panel.tsx';
import { panelEndpoints } from './effect-nav.tsx';

/** Stands in for the upload feature's dropzone: one click gives a photo that fits the limits. */
function PickImage({ label, onFile, onCheck }: ImageInputProps) {
  return (
    <button type="button" onClick={() => { onFile(new File([new Uint8Array([1, 2, 3])], 'cup.png', { type: 'image/png' })); onCheck([]); }}>
      Pick {label}
    </button>
  );
}

const renderPanel = (endpoint: Endpoint, extra: { available?: boolean; onRecord?: (r: RunRecord) => void } = {}) =>
  renderWithQuery(<EffectPanel endpoint={endpoint} available={extra.available ?? true} ImageInput={PickImage} onRecord={extra.onRecord} />);

const field = (name: string) => document.querySelector(`[data-field="${name}"]`) as HTMLElement;
const runButton = () => screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement;
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const envelope = { request_id: 'req-42', log_id: 'log-42', error_detail: { code: '', code_message: '', message: '' } };

beforeEach(() => usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined }));
afterEach(() => vi.unstubAllGlobals());

describe('EffectPanel is generated from the contract', () => {
  it.each(panelEndpoints.map((e) => [e.slug, e] as const))('%s: one control per field, required ones marked', (_slug, endpoint) => {
    renderPanel(endpoint);
    expect(screen.getByRole('heading', { level: 1, name: endpoint.title })).toBeTruthy();
    for (const [name, f] of Object.entries(endpoint.fields)) {
      const el = field(name);
      expect(el, name).toBeTruthy();
      expect(within(el).queryByText('Required') !== null, `${name} required mark`).toBe(f.required);
    }
  });

  it('pre-fills number defaults in the slider and the number box', () => {
    renderPanel(endpoints.faceBeauty);
    expect((screen.getByLabelText('Sharpen features value') as HTMLInputElement).value).toBe('0.3');
    expect((screen.getByLabelText('Smooth skin value') as HTMLInputElement).value).toBe('0.5');
    expect((screen.getByRole('slider', { name: 'Brighten skin' }) as HTMLInputElement).value).toBe('0.3');
  });

  it('shows 0/1 flags as switches, csv-sets as toggles and an optional enum with a Default choice', () => {
    const { unmount } = renderPanel(endpoints.faceAnalyzer);
    expect(screen.getByRole('switch', { name: 'Rotation search' }).getAttribute('aria-checked')).toBe('false');
    unmount();
    renderPanel(endpoints.apparelBackgroundRemoval);
    // out_mode is drawn by the apparel extra as two explained choices (extras/apparel-options.tsx).
    expect(screen.getByRole('radio', { name: /All clothing/, checked: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'tops', pressed: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'bag', pressed: false })).toBeTruthy();
    const form = screen.getByRole('radiogroup', { name: 'Output form' });
    // Plain words from the contract; the developer view shows the values sent.
    expect(within(form).getByRole('radio', { name: 'Transparent', checked: true })).toBeTruthy();
    expect(within(form).getAllByRole('radio').map((r) => r.textContent)).toEqual(['Transparent', 'Mask', 'On white']);
  });

  it('keeps Run off and says why until the photo is there', () => {
    renderPanel(endpoints.commodityBackgroundRemoval);
    expect(runButton().disabled).toBe(true);
    expect(screen.getByText('Add a photo to run.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Pick Image' }));
    expect(runButton().disabled).toBe(false);
  });

  it('marks an effect the engine does not provide and disables Run with the reason', () => {
    renderPanel(endpoints.commodityBackgroundRemoval, { available: false });
    fireEvent.click(screen.getByRole('button', { name: 'Pick Image' }));
    expect(screen.getByText('Not available on this engine')).toBeTruthy();
    expect(runButton().disabled).toBe(true);
    expect(screen.getByText('This effect is not available on the connected engine.')).toBeTruthy();
  });
});

describe('running', () => {
  it('posts the FormData built from the contract and records the result in onSuccess', async () => {
    const fetch = vi.fn(async (url: string, _init?: RequestInit) =>
      url.startsWith('/api/') ? json(200, { ...envelope, data: { image_url: 'http://127.0.0.1:8787/results/r.png' } }) : new Response(new Uint8Array([7, 7]), { headers: { 'content-type': 'image/png' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const onRecord = vi.fn();
    renderPanel(endpoints.commodityBackgroundRemoval, { onRecord });
    fireEvent.click(screen.getByRole('button', { name: 'Pick Image' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Trimmed' }));
    fireEvent.click(runButton());

    await waitFor(() => expect(onRecord).toHaveBeenCalledTimes(1));
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/cutout/general/commodity-background-removal');
    const body = init!.body as FormData;
    expect(body.get('return_form')).toBe('crop');
    expect((body.get('image') as File).name).toBe('cup.png');
    // The result URL of another origin is fetched through the studio's own origin (the proxy).
    expect(fetch.mock.calls[1][0]).toBe('/results/r.png');

    const record = onRecord.mock.calls[0][0] as RunRecord;
    expect(record.input.params).toEqual({ return_form: 'crop' });
    expect(record.outcome.mode).toBe('sync');
    expect(record.outcome.mode === 'sync' && record.outcome.results.map((r) => r.label)).toEqual(['Result']);
    expect(await screen.findByText(/The result is in the gallery/)).toBeTruthy();
  });

  it('shows the envelope error in words with its reference, the status and code in the developer view', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json(501, { ...envelope, error_detail: { code: 'ERROR_AI_NOT_AVAILABLE', code_message: 'Effect not available', message: 'commodity-background-removal is not provided by this engine' } })));
    const onRecord = vi.fn();
    renderPanel(endpoints.commodityBackgroundRemoval, { onRecord });
    fireEvent.click(screen.getByRole('button', { name: 'Pick Image' }));
    fireEvent.click(runButton());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Not available on this engine');
    expect(alert.textContent).not.toContain('ERROR_AI_NOT_AVAILABLE');
    expect(alert.textContent).not.toContain('501');
    expect(alert.textContent).toContain('commodity-background-removal is not provided by this engine');
    expect(alert.textContent).toContain('Reference for a bug report: req-42');
    act(() => useDevView.setState({ on: true }));
    expect(screen.getByRole('alert').textContent).toContain('501 · ERROR_AI_NOT_AVAILABLE');
    act(() => useDevView.setState({ on: false }));
    expect(onRecord).not.toHaveBeenCalled();
  });
});
