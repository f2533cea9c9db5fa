import { Blob as NodeBlob } from 'node:buffer';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../../../contract/index.ts';
import { renderWithQuery } from '../../../testing/render.tsx';
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
afterEach(() => {
  spies.forEach((s) => s.mockRestore());
  vi.unstubAllGlobals();
});

/** The face analyzer, asked for the face's estimated age: a face over the analysed one, 38 years old. */
function analyzer(answerWith: () => Promise<Response>) {
  // The stored photo is Node's Blob (what the IndexedDB stand-in keeps), which jsdom's FormData refuses.
  vi.stubGlobal('FormData', class { private readonly parts = new Map<string, unknown>(); append(k: string, v: unknown) { this.parts.set(k, v); } get(k: string) { return this.parts.get(k); } });
  const fetch = vi.fn(async (url: string) => (url === endpoints.faceAnalyzer.path ? answerWith() : new Response('{}', { status: 404 })));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const ageAnswer = async () => new Response(JSON.stringify({
  ...envelope, image_width: 1000, image_height: 500,
  face_detail_infos: [
    { face_rect: { x: 40, y: 40, width: 60, height: 60 }, face_detail_attributes_info: { age: 70 } },
    { face_rect: { x: 410, y: 110, width: 190, height: 240 }, face_detail_attributes_info: { age: 38 } },
  ],
}));

async function addSkinRun(maps: string[] = []) {
  const before = Object.assign(blob('image/jpeg'), { name: 'portrait.jpg' });
  const afters = maps.map((label) => ({ label, blob: blob('image/png') }));
  const item = await useGalleryStore.getState().addItem({ slug: 'skin-analysis-advanced', params: { return_maps: maps.join(',') }, before, afters, response: answer, status: 'done' });
  useGalleryStore.getState().select(item.id);
}

describe('Skin analysis result', () => {
  it('marks the lesions on the photo by kind, each labelled, with a legend that toggles them', async () => {
    analyzer(ageAnswer);
    await addSkinRun();
    renderWithQuery(<GalleryStage />);
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
    expect(acne.map((a) => a.textContent)).toEqual(['acne', 'acne']);
    expect(screen.getAllByTestId('lesion-mole')[0].textContent).toBe('mole');
    expect(screen.getByTestId('skin-face').textContent).toBe('Analysed face');
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

  it('reads every code and confidence in words, and the skin age beside the face\'s estimated age', async () => {
    const fetch = analyzer(ageAnswer);
    await addSkinRun();
    renderWithQuery(<GalleryStage />);
    const table = await screen.findByRole('region', { name: 'Skin measures' });
    const rows = () => Object.fromEntries(within(table).getAllByRole('row').map((r) => [r.querySelector('th')!.textContent, r.querySelector('td')!.textContent]));
    expect(rows()).toMatchObject({
      'Skin age': '31 years', 'Skin type': 'dry skin (fairly sure)', 'Skin colour': 'natural (fairly sure)', 'Dark circles': 'shadowed (hollows) (fairly sure)',
      "Crow's feet": 'not seen (fairly sure)', 'Smile lines': 'visible (fairly sure)', Blackheads: 'not seen (fairly sure)',
    });
    expect(within(table).getAllByRole('row').map((r) => r.querySelector('th')!.textContent).slice(0, 2)).toEqual(['Skin age', 'Estimated age of the face']);
    // The analyzer's face over the analysed one (not the other, older face), asked for its age only.
    await waitFor(() => expect(rows()['Estimated age of the face']).toBe('about 38 yearsThe skin looks 7 years younger than the face.'));
    const body = (fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as FormData;
    expect(body.get('face_attributes_type')).toBe('Age');
    expect(within(table).queryByText(/%|\b0\.\d/)).toBeNull();
  });

  it('says the estimated age is not available when the face analyzer does not answer', async () => {
    analyzer(async () => { throw new TypeError('Failed to fetch'); });
    await addSkinRun();
    renderWithQuery(<GalleryStage />);
    expect(await screen.findByText('not available now (the face analyzer did not answer)')).toBeTruthy();
    expect(screen.getByText('31 years')).toBeTruthy();
  });

  it('lays the maps over the photo, the first at once, with a legend in words', async () => {
    analyzer(ageAnswer);
    await addSkinRun(['red area', 'brown area']);
    renderWithQuery(<GalleryStage />);
    fireEvent.load(await screen.findByRole('img', { name: 'Analysed photo' }));
    const maps = within(await screen.findByRole('group', { name: 'Skin maps' }));
    expect(await screen.findByTestId('map-overlay-red area')).toBeTruthy();
    expect(maps.getByRole('button', { name: 'Redness' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('note', { name: 'Map legend' }).textContent).toMatch(/^Redness: The stronger the red, the redder the skin/);
    fireEvent.click(maps.getByRole('button', { name: 'Brown spots' }));
    expect(await screen.findByTestId('map-overlay-brown area')).toBeTruthy();
    expect(screen.queryByTestId('map-overlay-red area')).toBeNull();
    expect(screen.getByRole('note', { name: 'Map legend' }).textContent).toMatch(/^Brown spots: /);
    fireEvent.click(maps.getByRole('button', { name: 'Brown spots' }));
    expect(screen.queryByTestId('map-overlay-brown area')).toBeNull();
    expect(screen.queryByRole('note', { name: 'Map legend' })).toBeNull();
    // The maps are the report's overlays, not result tabs.
    expect(screen.queryByRole('tablist', { name: /results/i })).toBeNull();
  });
});
