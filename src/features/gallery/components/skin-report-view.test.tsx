import { Blob as NodeBlob } from 'node:buffer';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useGalleryStore } from '../stores/gallery-store.ts';
import { GalleryStage } from './gallery-stage.tsx';

const envelope = { request_id: 'req-1', log_id: 'log-1', error_detail: { code: '', code_message: '', message: '' } };
const blob = (type: string) => new NodeBlob([new Uint8Array([1, 7, 7])], { type }) as unknown as Blob;
const member = (value: number, confidence = 0.8) => ({ value, confidence });

/** A 1000×500 photo: the face at (400, 100), two acne marks and a mole. */
const answer = {
  ...envelope,
  warning: [],
  face_rectangle: { top: 100, left: 400, width: 200, height: 250 },
  result: {
    skin_age: { value: 31 }, skin_type: { skin_type: 1, details: { 0: member(0, 0.1), 1: member(1, 0.7), 2: member(0, 0.1), 3: member(0, 0.1) } },
    skin_color: member(2), left_eyelids: member(1), right_eyelids: member(1), eye_pouch: member(0), dark_circle: member(3, 0.64),
    forehead_wrinkle: member(0), crows_feet: member(0), eye_finelines: member(0), glabella_wrinkle: member(0), nasolabial_fold: member(1),
    pores_forehead: member(0), pores_left_cheek: member(0), pores_right_cheek: member(0), pores_jaw: member(0), blackhead: member(0),
    acne: { rectangle: [{ left: 450, top: 250, width: 10, height: 10 }, { left: 520, top: 260, width: 8, height: 8 }] },
    closed_comedones: { rectangle: [] }, mole: { rectangle: [{ left: 560, top: 300, width: 6, height: 6 }] }, skin_spot: { rectangle: [] },
  },
};

let urls = 0;
let spies: { mockRestore: () => void }[] = [];
beforeAll(() => {
  URL.createObjectURL = vi.fn(() => `blob:test/${++urls}`);
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => vi.restoreAllMocks());
beforeEach(async () => {
  await useGalleryStore.persist.rehydrate();
  useGalleryStore.setState({ items: [], selectedId: null });
  // jsdom lays nothing out: the photo's frame is 800×600 and the photo 1000×500.
  spies = [
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) { return this.dataset.testid === 'skin-photo' ? 800 : 0; }),
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) { return this.dataset.testid === 'skin-photo' ? 600 : 0; }),
    vi.spyOn(HTMLImageElement.prototype, 'naturalWidth', 'get').mockReturnValue(1000),
    vi.spyOn(HTMLImageElement.prototype, 'naturalHeight', 'get').mockReturnValue(500),
  ];
});
afterEach(() => spies.forEach((s) => s.mockRestore()));

async function addSkinRun(maps: string[] = []) {
  const before = Object.assign(blob('image/jpeg'), { name: 'portrait.jpg' });
  const afters = maps.map((label) => ({ label, blob: blob('image/png') }));
  const item = await useGalleryStore.getState().addItem({ slug: 'skin-analysis-advanced', params: { return_maps: maps.join(',') }, before, afters, response: answer, status: 'done' });
  useGalleryStore.getState().select(item.id);
}

describe('Skin analysis result', () => {
  it('marks the lesions on the photo by kind, with a legend that toggles them', async () => {
    await addSkinRun();
    render(<GalleryStage />);
    fireEvent.load(await screen.findByRole('img', { name: 'Analysed photo' }));
    // Zoomed to the face first: the face with 35 % around it (340×425 photo px) fills the 800×600 frame's height.
    const scale = 600 / 425;
    expect(parseFloat(screen.getByTestId('skin-face').style.width)).toBeCloseTo(200 * scale, 3);
    fireEvent.click(screen.getByRole('button', { name: 'Whole photo' }));
    // 1000×500 in 800×600: scale 0.8; marks are in the photo's layer.
    const acne = await screen.findAllByTestId('lesion-acne');
    expect(acne).toHaveLength(2);
    expect([acne[0].style.left, acne[0].style.top, acne[0].style.width]).toEqual(['360px', '200px', '8px']);
    expect(screen.getByTestId('skin-marks').style.top).toBe('100px');
    expect(screen.getAllByTestId('lesion-mole')).toHaveLength(1);
    expect(screen.getAllByTestId('skin-zone').length).toBeGreaterThan(8);

    const legend = within(screen.getByRole('region', { name: 'Marks on the photo' }));
    const acneToggle = legend.getByRole('button', { name: /Acne 2/ });
    fireEvent.click(acneToggle);
    expect(acneToggle.getAttribute('aria-pressed')).toBe('false');
    expect(screen.queryAllByTestId('lesion-acne')).toHaveLength(0);
    expect(screen.getAllByTestId('lesion-mole')).toHaveLength(1);
    fireEvent.click(legend.getByRole('button', { name: 'Zone guide' }));
    expect(screen.queryAllByTestId('skin-zone')).toHaveLength(0);
  });

  it('reads every code in words', async () => {
    await addSkinRun();
    render(<GalleryStage />);
    const table = await screen.findByRole('region', { name: 'Skin measures' });
    const rows = Object.fromEntries(within(table).getAllByRole('row').map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]));
    expect(rows).toMatchObject({ 'Skin age': '31 years', 'Skin type': 'dry skin · 70%', 'Skin colour': 'natural · 80%', 'Dark circles': 'shadow dark circles · 64%', 'Smile lines': 'Smile lines · 80%', Blackheads: 'none · 80%' });
  });

  it('lays a returned map over the photo while it is chosen', async () => {
    await addSkinRun(['red area', 'brown area']);
    render(<GalleryStage />);
    fireEvent.load(await screen.findByRole('img', { name: 'Analysed photo' }));
    const maps = within(await screen.findByRole('group', { name: 'Skin maps' }));
    expect(screen.queryByTestId('map-overlay-red area')).toBeNull();
    fireEvent.click(maps.getByRole('button', { name: 'red area' }));
    expect(await screen.findByTestId('map-overlay-red area')).toBeTruthy();
    fireEvent.click(maps.getByRole('button', { name: 'brown area' }));
    expect(await screen.findByTestId('map-overlay-brown area')).toBeTruthy();
    expect(screen.queryByTestId('map-overlay-red area')).toBeNull();
    // The maps are the report's overlays, not result tabs.
    expect(screen.queryByRole('tablist', { name: /results/i })).toBeNull();
  });
});
