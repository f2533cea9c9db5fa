import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
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

beforeEach(() => usePanelStore.setState({ values: {}, imageProblems: {}, lastRun: {}, lastPhoto: undefined }));
afterEach(() => vi.unstubAllGlobals());

describe('Lip colour panel', () => {
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
});
