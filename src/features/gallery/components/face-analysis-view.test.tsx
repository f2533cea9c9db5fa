import { Blob as NodeBlob } from 'node:buffer';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useGalleryStore } from '../stores/gallery-store.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
import { GalleryStage } from './gallery-stage.tsx';
import { attributeBlock, noAttribute } from '../utils/face-answer.fixture.ts';

const envelope = { request_id: 'req-1', log_id: 'log-1', error_detail: { code: '', code_message: '', message: '' } };
const photo = () => Object.assign(new NodeBlob([new Uint8Array([1, 7, 7])], { type: 'image/jpeg' }) as unknown as Blob, { name: 'group.jpg' });

const none = noAttribute;
const attributes = attributeBlock;

/** A 1000×500 photo: face 1 cut by the left edge, face 2 a smaller one, the rest small and without attributes past the 5th. */
function answer(faceCount: number) {
  const faces = Array.from({ length: faceCount }, (_, i) => {
    const rect = i === 0 ? { x: -20, y: 50, width: 200, height: 220 } : i === 1 ? { x: 500, y: 100, width: 150, height: 160 } : { x: 700 + (i % 10) * 25, y: 300 + Math.floor(i / 10) * 15, width: 20, height: 22 };
    const attrs =
      i === 0
        ? attributes({ age: 41, emotion: { type: 1, probability: 0.93 }, gender: { type: 0, probability: 0.96 }, eye: { glass: { type: 0, probability: 0.88 }, eye_open: { type: 0, probability: 0.97 }, eyelid_type: { type: 1, probability: 0.7 }, eye_size: { type: 1, probability: 0.6 } }, head_pose: { pitch: -3, yaw: 12, roll: 1 } })
        : i === 1
          ? attributes({ age: 29, emotion: { type: 2, probability: 0.81 }, gender: { type: 1, probability: 0.99 }, eye: { glass: { type: 2, probability: 0.77 }, eye_open: { type: 1, probability: 0.64 }, eyelid_type: { type: 0, probability: 0.52 }, eye_size: { type: 2, probability: 0.58 } }, head_pose: { pitch: 5, yaw: -20, roll: 0 } })
          : i < 5
            ? attributes({ age: 30 + i, emotion: { type: 0, probability: 0.5 }, gender: { type: 1, probability: 0.5 } })
            : attributes();
    return { face_rect: rect, face_detail_attributes_info: attrs };
  });
  return { ...envelope, image_width: 1000, image_height: 500, face_detail_infos: faces };
}

async function addFaceRun(response: unknown, params: Record<string, string> = { max_face_num: '10', face_attributes_type: 'Age,Gender,Emotion,Eye,Headpose' }) {
  const item = await useGalleryStore.getState().addItem({ slug: 'face-analyzer', params, before: photo(), afters: [], response, status: 'done' });
  useGalleryStore.getState().select(item.id);
}

let urls = 0;
let sizes: { mockRestore: () => void }[] = [];
beforeAll(() => {
  URL.createObjectURL = vi.fn(() => `blob:test/${++urls}`);
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => vi.restoreAllMocks());
beforeEach(async () => {
  await useGalleryStore.persist.rehydrate();
  useGalleryStore.setState({ items: [], selectedId: null });
  // jsdom lays nothing out: the photo's frame is 800×600.
  sizes = [
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'face-photo' ? 800 : 0;
    }),
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'face-photo' ? 600 : 0;
    }),
  ];
});
afterEach(() => sizes.forEach((s) => s.mockRestore()));

const boxes = () => within(screen.getByTestId('face-boxes'));
const list = () => within(screen.getByRole('list', { name: 'Faces' }));
/** The details card's rows as label → value. */
const details = (n: number) =>
  Object.fromEntries(
    within(screen.getByRole('region', { name: `Face ${n} attributes` }))
      .getAllByRole('row')
      .map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]),
  );

describe('Face analyzer result', () => {
  it('draws every face box on the contained photo with its number, clipped to the photo', async () => {
    await addFaceRun(answer(3));
    render(<GalleryStage />);
    expect(await screen.findByRole('img', { name: 'Analysed photo' })).toBeTruthy();
    expect(await screen.findByText('3 faces, largest first')).toBeTruthy();

    // 1000×500 in 800×600: scale 0.8, the photo 800×400 at y 100; the boxes' layer is that rectangle and clips.
    const layer = screen.getByTestId('face-boxes');
    expect([layer.style.left, layer.style.top, layer.style.width, layer.style.height]).toEqual(['0px', '100px', '800px', '400px']);
    expect(layer.className).toContain('overflow-hidden');

    const drawn = boxes().getAllByRole('button');
    // Face 3 is 16 px wide on screen: its number would spill over its neighbours, so it shows while pointed at.
    expect(drawn.map((b) => [b.getAttribute('aria-label'), b.textContent])).toEqual([['Face 1', '1'], ['Face 2', '2'], ['Face 3', '']]);
    fireEvent.mouseEnter(drawn[2]);
    expect(drawn[2].textContent).toBe('3');
    fireEvent.mouseLeave(drawn[2]);
    // Face 1 starts 20 px left of the photo: its box starts left of the layer, its number stays in view.
    const one = drawn[0];
    expect([one.style.left, one.style.top, one.style.width, one.style.height]).toEqual(['-16px', '40px', '160px', '176px']);
    expect((one.firstElementChild as HTMLElement).style.left).toBe('18px');
    expect([drawn[1].style.left, drawn[1].style.top]).toEqual(['400px', '80px']);
    expect(screen.getByText("The box reaches past the photo's edge; it is drawn clipped.")).toBeTruthy();
  });

  it('shows the chosen face in words with percentages; pointing at another previews it', async () => {
    await addFaceRun(answer(3));
    render(<GalleryStage />);
    // Face 1 is shown first.
    expect((await screen.findByRole('region', { name: 'Face 1 attributes' })).textContent).toContain('happy · 93%');

    fireEvent.click(boxes().getByRole('button', { name: 'Face 2' }));
    expect(details(2)).toMatchObject({
      Age: '29',
      Gender: 'female · 99%',
      Emotion: 'surprised · 81%',
      Glasses: 'sunglasses · 77%',
      Eyes: 'closed · 64%',
      Eyelids: 'single · 52%',
      'Eye size': 'large · 58%',
      'Head pose': 'yaw −20°, pitch 5°, roll 0°',
    });
    expect(boxes().getByRole('button', { name: 'Face 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(list().getByRole('button', { name: 'Face 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByRole('region', { name: 'Face 1 attributes' })).toBeNull();

    // Hovering face 1's list row shows face 1 until the pointer leaves; focus does the same for the keyboard.
    fireEvent.mouseEnter(list().getByRole('button', { name: 'Face 1' }));
    expect(details(1)).toMatchObject({ Emotion: 'happy · 93%', Age: '41', Glasses: 'none · 88%', 'Head pose': 'yaw 12°, pitch −3°, roll 1°' });
    fireEvent.mouseLeave(list().getByRole('button', { name: 'Face 1' }));
    expect(details(2).Emotion).toBe('surprised · 81%');
    fireEvent.focus(boxes().getByRole('button', { name: 'Face 3' }));
    expect(screen.getByRole('region', { name: 'Face 3 attributes' })).toBeTruthy();
    fireEvent.blur(boxes().getByRole('button', { name: 'Face 3' }));
    expect(screen.getByRole('region', { name: 'Face 2 attributes' })).toBeTruthy();
  });

  it('reads families that were not requested as "not requested", not as code 0', async () => {
    await addFaceRun(answer(2));
    render(<GalleryStage />);
    await screen.findByRole('region', { name: 'Face 1 attributes' });
    const rows = details(1);
    for (const family of ['Mask', 'Hair', 'Hat', 'Moustache', 'Face shape', 'Skin colour', 'Smile', 'Beauty']) expect(rows[family], family).toBe('not requested');
    // Asked-for families are in words, even where the code is 0.
    expect(rows.Gender).toBe('male · 96%');
    expect(Object.values(rows)).not.toContain('none · 0%');
  });

  it('tells unrequested families by their zeros when the request is not known, and None by a note', async () => {
    await addFaceRun(answer(2), {});
    render(<GalleryStage />);
    await screen.findByRole('region', { name: 'Face 1 attributes' });
    expect(details(1)).toMatchObject({ Mask: 'not requested', Hair: 'not requested', Emotion: 'happy · 93%' });

    useGalleryStore.setState({ items: [], selectedId: null });
    const bare = { ...envelope, image_width: 1000, image_height: 500, face_detail_infos: [{ face_rect: { x: 10, y: 10, width: 100, height: 100 }, face_detail_attributes_info: attributes() }] };
    await addFaceRun(bare, { face_attributes_type: 'None' });
    const region = await screen.findByRole('region', { name: 'Face 1 attributes' });
    expect(region.textContent).toContain('Attributes: not requested.');
    expect(within(region).queryByText('neutral', { exact: false })).toBeNull();
  });

  it('says that the 6th face on has no attributes', async () => {
    await addFaceRun(answer(7));
    render(<GalleryStage />);
    await screen.findByText('7 faces, largest first');
    expect(list().getByRole('button', { name: 'Face 6' }).textContent).toContain('no attributes');
    expect(list().getByRole('button', { name: 'Face 5' }).textContent).toContain('age 34');
    fireEvent.click(list().getByRole('button', { name: 'Face 6' }));
    const region = screen.getByRole('region', { name: 'Face 6 attributes' });
    expect(region.textContent).toContain('No attributes (only the 5 largest faces get them).');
    expect(within(region).queryByRole('table')).toBeNull();
  });

  it('keeps the raw JSON a tab away', async () => {
    await addFaceRun(answer(2));
    render(<GalleryStage />);
    await screen.findByRole('region', { name: 'Face 1 attributes' });
    expect(screen.queryByLabelText('Raw JSON response')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Raw JSON' }));
    const raw = await screen.findByLabelText('Raw JSON response');
    expect(raw.textContent).toContain('"image_width": 1000');
    expect(raw.textContent).toContain('"face_detail_infos"');
    // Going back keeps the boxes and the list.
    fireEvent.click(screen.getByRole('tab', { name: 'Faces' }));
    expect(screen.getByRole('list', { name: 'Faces' })).toBeTruthy();
  });

  it('handles no faces, and 120 in a scrolling list', async () => {
    await addFaceRun({ ...envelope, image_width: 640, image_height: 480, face_detail_infos: [] });
    const { unmount } = render(<GalleryStage />);
    expect(await screen.findByText('No faces found in this photo.')).toBeTruthy();
    expect(within(screen.getByTestId('face-boxes')).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('list', { name: 'Faces' })).toBeNull();
    unmount();

    useGalleryStore.setState({ items: [], selectedId: null });
    await addFaceRun(answer(120), { max_face_num: '120', face_attributes_type: 'Age' });
    render(<GalleryStage />);
    expect(await screen.findByText('120 faces, largest first')).toBeTruthy();
    expect(boxes().getAllByRole('button')).toHaveLength(120);
    expect(list().getAllByRole('button')).toHaveLength(120);
    expect(screen.getByRole('list', { name: 'Faces' }).className).toContain('overflow-y-auto');
    fireEvent.click(boxes().getByRole('button', { name: 'Face 120' }));
    expect(screen.getByRole('region', { name: 'Face 120 attributes' }).textContent).toContain('No attributes');
  });
});

describe('Skin analysis result', () => {
  it('gets its own skin report, not the face view', async () => {
    const item = await useGalleryStore.getState().addItem({ slug: 'skin-analysis-advanced', params: {}, before: photo(), afters: [], response: { ...envelope, result: { skin_age: { value: 31 } } }, status: 'done' });
    useGalleryStore.getState().select(item.id);
    renderWithQuery(<GalleryStage />);
    expect(await screen.findByRole('tab', { name: 'Skin report' })).toBeTruthy();
    expect(await screen.findByText('31 years')).toBeTruthy();
    expect(screen.queryByTestId('face-analysis')).toBeNull();
  });
});
