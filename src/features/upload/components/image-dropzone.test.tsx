import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limits } from '../../../../contract/limits.ts';
import { pngHeader } from '../../../testing/image-bytes.ts';
import { ImageDropzone } from './image-dropzone.tsx';

describe('ImageDropzone', () => {
  it('is a button to browse, and explains a photo that breaks the limits', async () => {
    const onFile = vi.fn();
    const onCheck = vi.fn();
    const props = { id: 'img', label: 'Image', effectTitle: 'Product background removal', limits: limits.product, required: true, onFile, onCheck };
    const { rerender } = render(<ImageDropzone {...props} file={undefined} />);
    expect(screen.getByRole('button', { name: /drop a photo here or click to browse/i })).toBeTruthy();

    const file = new File([pngHeader(2400, 1800)], 'big.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Upload photo'), { target: { files: [file] } });
    await waitFor(() => expect(onFile).toHaveBeenCalledWith(file));

    rerender(<ImageDropzone {...props} file={file} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This photo is 2400×1800 px; product background removal accepts each side up to 1999 px.');
    expect(onCheck).toHaveBeenCalledWith(['This photo is 2400×1800 px; product background removal accepts each side up to 1999 px.']);
  });

  it('offers to choose or take a photo on a touch screen, where there is nothing to drop', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)', addEventListener: () => undefined, removeEventListener: () => undefined }));
    const { container } = render(<ImageDropzone id="img" label="Image" effectTitle="Lip colour" limits={limits.lipsColor} required file={undefined} onFile={vi.fn()} onCheck={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Image: tap to choose a photo or take one' })).toBeTruthy();
    expect(screen.getByText('Tap to choose a photo')).toBeTruthy();
    expect(container.textContent).not.toMatch(/drop|click/i);
  });
});

afterEach(() => vi.unstubAllGlobals());
