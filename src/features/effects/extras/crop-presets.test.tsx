import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { EffectPanel } from '../components/effect-panel.tsx';
import { useImageSize } from '../hooks/use-image-size.ts';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';

vi.mock('../hooks/use-image-size.ts', () => ({ useImageSize: vi.fn(() => undefined) }));

function PickImage({ onFile, onCheck }: ImageInputProps) {
  return (
    <button type="button" onClick={() => { onFile(new File([new Uint8Array([1])], 'portrait.jpg', { type: 'image/jpeg' })); onCheck([]); }}>
      Pick photo
    </button>
  );
}

const renderCrop = (onRecord = vi.fn()) =>
  renderWithQuery(<EffectPanel endpoint={endpoints.imageCropping} available ImageInput={PickImage} onRecord={onRecord} />);
const box = (name: 'Width' | 'Height') => (screen.getByLabelText(`${name} value`) as HTMLInputElement).value;
const run = () => screen.getByRole('button', { name: 'Run' }) as HTMLButtonElement;

beforeEach(() => usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined }));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(useImageSize).mockReturnValue(undefined);
});

describe('Smart crop presets', () => {
  it('fill the contract’s width and height fields with a social size, and say so', () => {
    renderCrop();
    expect([box('Width'), box('Height')]).toEqual(['', '']);
    fireEvent.click(screen.getByRole('button', { name: 'Portrait post, 1080×1350' }));
    expect([box('Width'), box('Height')]).toEqual(['1080', '1350']);
    expect(screen.getByRole('button', { name: 'Portrait post, 1080×1350', pressed: true })).toBeTruthy();
    // 1080×1350 is also the 4:5 shape.
    expect(screen.getByRole('button', { name: /^4:5 Portrait/, pressed: true })).toBeTruthy();
    expect(screen.getByText('1080×1350 px').parentElement!.textContent).toContain('4:5');

    fireEvent.click(screen.getByRole('button', { name: 'HD landscape, 1920×1080' }));
    expect([box('Width'), box('Height')]).toEqual(['1920', '1080']);
    fireEvent.click(screen.getByRole('button', { name: 'Swap' }));
    expect([box('Width'), box('Height')]).toEqual(['1080', '1920']);
    expect(screen.getByRole('button', { name: 'Story / reel, 1080×1920', pressed: true })).toBeTruthy();
  });

  it('size an aspect from the photo itself, and a custom size still goes through the number boxes', () => {
    vi.mocked(useImageSize).mockReturnValue({ width: 910, height: 1137 });
    renderCrop();
    fireEvent.click(screen.getByRole('button', { name: 'Pick photo' }));
    expect(screen.getByText('from the 910×1137 photo')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '16:9 Widescreen, 910×512' }));
    expect([box('Width'), box('Height')]).toEqual(['910', '512']);
    fireEvent.click(screen.getByRole('button', { name: '1:1 Square, 910×910' }));
    expect([box('Width'), box('Height')]).toEqual(['910', '910']);

    fireEvent.change(screen.getByLabelText('Width value'), { target: { value: '700' } });
    expect(box('Width')).toBe('700');
    expect(screen.queryByRole('button', { pressed: true, name: /^1:1/ })).toBeNull();
  });

  it('sends the preset’s width and height', async () => {
    const fetch = vi.fn(async (url: string, _init?: RequestInit) =>
      url.startsWith('/api/')
        ? new Response(JSON.stringify({ request_id: 'r', log_id: 'l', error_detail: { code: '', code_message: '', message: '' }, data: { url: '/results/c.jpg', retain_location: { x: 0, y: 0, width: 1, height: 1 } } }), { status: 200 })
        : new Response(new Uint8Array([1]), { headers: { 'content-type': 'image/jpeg' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const onRecord = vi.fn();
    renderCrop(onRecord);
    fireEvent.click(screen.getByRole('button', { name: 'Pick photo' }));
    expect(run().disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Square post, 1080×1080' }));
    expect(run().disabled).toBe(false);
    fireEvent.click(run());
    await waitFor(() => expect(onRecord).toHaveBeenCalled());
    const body = fetch.mock.calls[0][1]!.body as FormData;
    expect([body.get('width'), body.get('height')]).toEqual(['1080', '1080']);
  });
});
