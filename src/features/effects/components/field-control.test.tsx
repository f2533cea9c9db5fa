import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { pngHeader } from '../../../testing/image-bytes.ts';
import { ImageDropzone } from '../../upload/components/image-dropzone.tsx';
import { getHealth } from '../api/get-health.ts';
import { FieldControl } from './field-control.tsx';

/** /healthz answering as an engine whose self-hoster raised the image limits (or not). */
const engine = (imageLimits?: { max_side: number; max_bytes: number }) =>
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ status: 'ok', ready: true, ...(imageLimits ? { image_limits: imageLimits } : {}) }), { status: 200 })));

afterEach(() => vi.unstubAllGlobals());

describe('the photo field on an engine with raised limits', () => {
  const endpoint = endpoints.commodityBackgroundRemoval;
  const phone = () => new File([pngHeader(4032, 3024)], 'phone.png', { type: 'image/png' });

  async function drop(file: File) {
    const onCheck = vi.fn(), onChange = vi.fn();
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const ui = (value: File | undefined) => (
      <QueryClientProvider client={client}>
        <FieldControl endpoint={endpoint} name="image" field={endpoint.fields.image} value={value} onChange={onChange} onImageCheck={onCheck} ImageInput={ImageDropzone} />
      </QueryClientProvider>
    );
    // As the app does on start (its useHealth); the field reads that answer.
    await client.prefetchQuery({ queryKey: ['healthz'], queryFn: getHealth });
    const { rerender } = render(ui(undefined));
    fireEvent.change(screen.getByLabelText('Upload photo'), { target: { files: [file] } });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(file));
    rerender(ui(file));
    return () => onCheck.mock.calls.at(-1)?.[0] as string[] | undefined;
  }

  it('takes a 4032x3024 phone photo as it is when the engine takes 4096 px', async () => {
    engine({ max_side: 4096, max_bytes: 20 * 2 ** 20 });
    const lastCheck = await drop(phone());
    await waitFor(() => expect(lastCheck()).toEqual([]));
  });

  it('holds the same photo to the interface\'s 1999 px on an engine that did not raise them', async () => {
    engine();
    const lastCheck = await drop(phone());
    await waitFor(() => expect(lastCheck()?.join(' ')).toContain('accepts each side up to 1999 px'));
  });
});
