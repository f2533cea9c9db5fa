import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { useDevView } from '../../../lib/dev-view.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { EffectPanel } from '../components/effect-panel.tsx';
import { usePanelStore } from '../stores/panel-store.ts';
import type { ImageInputProps } from '../types.ts';

function PickImage({ onFile, onCheck }: ImageInputProps) {
  return (
    <button type="button" onClick={() => { onFile(new File([new Uint8Array([1])], 'pair.jpg', { type: 'image/jpeg' })); onCheck([]); }}>
      Pick photo
    </button>
  );
}

const ok = { request_id: 'r', log_id: 'l', error_detail: { code: '', code_message: '', message: '' } };
const big = { x: 100, y: 80, width: 300, height: 300 }, small = { x: 600, y: 200, width: 120, height: 120 };
const sent = () => JSON.parse(screen.getByText(/^\[\{"rgba"/).textContent!);

// The JSON sent is shown in the developer view.
beforeEach(() => {
  usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined });
  useDevView.setState({ on: true });
});
afterEach(() => vi.unstubAllGlobals());

describe('Lip colour panel', { timeout: 20_000 }, () => {
  it('offers shades, and gives a colour the face clicked on the photo', async () => {
    const fetch = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === endpoints.faceAnalyzer.path) {
        expect((init!.body as FormData).get('max_face_num')).toBe('10');
        return new Response(JSON.stringify({ ...ok, image_width: 800, image_height: 600, face_detail_infos: [{ face_rect: big }, { face_rect: small }] }));
      }
      return new Response(JSON.stringify({ ...ok, result_image: 'iVBORw0KGgo=' }));
    });
    vi.stubGlobal('fetch', fetch);
    renderWithQuery(<EffectPanel endpoint={endpoints.lipsColorChanger} available ImageInput={PickImage} />);
    fireEvent.click(within(screen.getByRole('group', { name: 'Shades for colour 1' })).getByRole('button', { name: 'Plum' }));
    expect(sent()[0].rgba).toEqual({ r: 0x6e, g: 0x2a, b: 0x5a, a: 50 });
    expect(sent()[0].face_rect).toBeUndefined();

    fireEvent.click(screen.getByRole('button', { name: 'Pick photo' }));
    const faces = await screen.findByRole('region', { name: 'Faces' });
    fireEvent.click(await within(faces).findByRole('button', { name: 'Face 2' }));
    expect(sent()[0].face_rect).toEqual(small);
    expect(within(faces).getByRole('button', { name: 'Face 2' }).getAttribute('aria-pressed')).toBe('true');

    // A second colour goes to the other face; "Any face" gives the first back to the engine's default.
    fireEvent.click(screen.getByRole('button', { name: 'Add colour' }));
    fireEvent.click(within(faces).getByRole('radio', { name: /Colour 2/ }));
    fireEvent.click(within(faces).getByRole('button', { name: 'Face 1' }));
    expect(sent().map((c: { face_rect?: unknown }) => c.face_rect)).toEqual([small, big]);
    fireEvent.click(screen.getAllByRole('button', { name: 'Any face' })[0]);
    expect(sent().map((c: { face_rect?: unknown }) => c.face_rect)).toEqual([undefined, big]);

    fireEvent.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => u === endpoints.lipsColorChanger.path)).toBe(true));
    const [, init] = fetch.mock.calls.find(([u]) => u === endpoints.lipsColorChanger.path)!;
    expect(JSON.parse((init!.body as FormData).get('lip_color_infos') as string)[1].face_rect).toEqual(big);
  });

  function PickFitted({ onFile, onCheck }: ImageInputProps) {
    return (
      <button type="button" onClick={() => {
        const phone = new File([new Uint8Array(4096)], 'phone.jpg', { type: 'image/jpeg' });
        onFile(phone);
        onCheck([], { source: phone, file: new File([new Uint8Array([1])], 'phone-fitted.jpg', { type: 'image/jpeg' }), note: 'Resized from 4032×3024 to 1999×1499 to fit this effect.' });
      }}>
        Pick phone photo
      </button>
    );
  }

  it('looks for faces in the copy fitted to the limits, the one that will be sent', async () => {
    const analysed: string[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
      if (url === endpoints.faceAnalyzer.path) analysed.push(((init!.body as FormData).get('image') as File).name);
      return new Response(JSON.stringify({ ...ok, image_width: 1999, image_height: 1499, face_detail_infos: [{ face_rect: big }] }));
    }));
    renderWithQuery(<EffectPanel endpoint={endpoints.lipsColorChanger} available ImageInput={PickFitted} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pick phone photo' }));
    const faces = await screen.findByRole('region', { name: 'Faces' });
    fireEvent.click(await within(faces).findByRole('button', { name: 'Face 1' }));
    expect(analysed).toEqual(['phone-fitted.jpg']);
    expect(sent()[0].face_rect).toEqual(big);
  });

  function PickWebp({ onFile, onCheck }: ImageInputProps) {
    return (
      <button type="button" onClick={() => { onFile(new File([new Uint8Array([1])], 'pair.webp', { type: 'image/webp' })); onCheck([]); }}>
        Pick WebP
      </button>
    );
  }

  it('gives the analyzer, which takes no WebP, a JPEG copy of a WebP photo at its size', async () => {
    const analysed: File[] = [];
    vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
      if (url === endpoints.faceAnalyzer.path) analysed.push((init!.body as FormData).get('image') as File);
      return new Response(JSON.stringify({ ...ok, image_width: 800, image_height: 600, face_detail_infos: [{ face_rect: small }] }));
    }));
    // jsdom cannot decode or encode images: the browser's own calls, as they answer for an 800×600 WebP.
    const drawn: number[][] = [];
    vi.stubGlobal('createImageBitmap', async () => ({ width: 800, height: 600, close: () => undefined }));
    vi.stubGlobal('OffscreenCanvas', class {
      constructor(readonly width: number, readonly height: number) {}
      getContext() { return { drawImage: (_b: unknown, ...box: number[]) => drawn.push(box) }; }
      async convertToBlob(o: { type: string }) { return new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: o.type }); }
    });
    renderWithQuery(<EffectPanel endpoint={endpoints.lipsColorChanger} available ImageInput={PickWebp} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pick WebP' }));
    const faces = await screen.findByRole('region', { name: 'Faces' });
    fireEvent.click(await within(faces).findByRole('button', { name: 'Face 1' }));
    expect(analysed.map((f) => [f.name, f.type])).toEqual([['pair.jpg', 'image/jpeg']]);
    expect(drawn).toEqual([[0, 0, 800, 600]]);
    expect(sent()[0].face_rect).toEqual(small);
    expect(screen.queryByText(/No faces to choose from/)).toBeNull();
  });
});
