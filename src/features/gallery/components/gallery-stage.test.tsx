import { Blob as NodeBlob } from 'node:buffer';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { endpointBySlug } from '../../../../contract/index.ts';
import { resultSources } from '../../../lib/results.ts';
import { useGalleryStore } from '../stores/gallery-store.ts';
import { readPixels } from '../utils/read-pixels.ts';
import { attributeBlock } from '../utils/face-answer.fixture.ts';
import { GalleryStage } from './gallery-stage.tsx';

// jsdom decodes no images: a result's first byte says what the "decoded" picture holds (0: nothing, 1: a garment).
vi.mock('../utils/read-pixels.ts', () => ({
  readPixels: vi.fn(async (blob: Blob) => {
    const [marker] = new Uint8Array(await blob.arrayBuffer());
    const data = new Uint8ClampedArray(40 * 40 * 4);
    if (marker === 1) for (let i = 0; i < 400; i++) data[i * 4 + 3] = 255;
    return { data, width: 40, height: 40 };
  }),
}));

const blob = (marker: number, type = 'image/png') => new NodeBlob([new Uint8Array([marker, 7, 7])], { type }) as unknown as Blob;
const envelope = { request_id: 'req-1', log_id: 'log-1', error_detail: { code: '', code_message: '', message: '' } };

let urls = 0;
beforeAll(() => {
  URL.createObjectURL = vi.fn(() => `blob:test/${++urls}`);
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => vi.restoreAllMocks());
beforeEach(async () => {
  await useGalleryStore.persist.rehydrate();
  useGalleryStore.setState({ items: [], selectedId: null });
});

/** A finished run added to the gallery the way the app records it: sources from the answer, blobs beside them. */
async function addRun(slug: string, params: Record<string, string>, response: unknown, markers: Record<string, number>) {
  const afters = resultSources(endpointBySlug(slug)!.result, response).map((s) => ({ label: s.label, blob: blob(markers[s.label] ?? 1) }));
  const item = await useGalleryStore.getState().addItem({ slug, params, before: Object.assign(blob(1, 'image/jpeg'), { name: 'person.jpg' }), afters, response, status: 'done' });
  useGalleryStore.getState().select(item.id);
  return item;
}

describe('Apparel results', () => {
  const response = {
    ...envelope,
    data: { elements: [{ image_url: 'http://e/results/all.png' }, { class_url: { tops: 'http://e/results/tops.png', pants: 'http://e/results/pants.png', hat: 'http://e/results/hat.png' } }] },
  };

  it('gives the main cutout and one tab per class, each shown on the stage and downloadable', async () => {
    await addRun('apparel-background-removal', { out_mode: '1', cloth_class: 'tops,pants,hat' }, response, {});
    render(<GalleryStage />);
    const tabs = within(screen.getByRole('tablist', { name: 'Results' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Selected classes', 'Tops', 'Pants', 'Hat']);
    expect(tabs[0].getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('link', { name: 'Download Selected classes' })).toBeTruthy();

    fireEvent.click(screen.getByRole('tab', { name: 'Pants' }));
    expect(screen.getByRole('tab', { name: 'Pants' }).getAttribute('aria-selected')).toBe('true');
    const download = await screen.findByRole('link', { name: 'Download Pants' });
    expect(download.getAttribute('download')).toBe('person-clothing-pants.png');
    // The stage compares the photo with the chosen class.
    expect(await screen.findByRole('img', { name: 'Pants' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Before/after divider' })).toBeTruthy();
  });

  it('labels a class that came back empty as not found, on its tab and on the stage', async () => {
    await addRun('apparel-background-removal', { cloth_class: 'tops,pants,hat' }, response, { hat: 0 });
    render(<GalleryStage />);
    expect(await screen.findByRole('tab', { name: 'Hat, not found in this photo' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'All clothing' })).toBeTruthy();
    // The garments that are there are not marked.
    for (const c of ['Tops', 'Pants']) await vi.waitFor(() => expect(screen.getByRole('tab', { name: c }).getAttribute('data-blank')).toBe('false'));
    expect(screen.queryByText(/nothing of it was found/)).toBeNull();

    fireEvent.click(screen.getByRole('tab', { name: /^Hat/ }));
    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Hat: not found in this photo');
    expect(notice.textContent).toContain('The engine returned a fully transparent image for this class');
    expect(vi.mocked(readPixels)).toHaveBeenCalled();
  });

  it('shows every class at once in a large grid, a click opening that one beside the photo', async () => {
    await addRun('apparel-background-removal', { cloth_class: 'tops,pants,hat' }, response, { hat: 0 });
    render(<GalleryStage />);
    fireEvent.click(screen.getByRole('radio', { name: 'All 4 large' }));
    const grid = screen.getByRole('list', { name: 'All results' });
    expect(within(grid).getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual(['Open All clothing', 'Open Tops', 'Open Pants', expect.stringMatching(/^Open Hat/)]);
    expect(await within(grid).findByRole('button', { name: 'Open Hat, not found in this photo' })).toBeTruthy();
    // The tabs and the single viewer give way to the grid.
    expect(screen.queryByRole('tablist', { name: 'Results' })).toBeNull();
    expect(screen.queryByRole('slider', { name: 'Before/after divider' })).toBeNull();

    fireEvent.click(within(grid).getByRole('button', { name: 'Open Pants' }));
    expect(screen.queryByRole('list', { name: 'All results' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Pants' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByRole('img', { name: 'Pants' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'One at a time' }).getAttribute('aria-checked')).toBe('true');
  });

  it('offers no grid for a single result', async () => {
    await addRun('commodity-background-removal', {}, { ...envelope, data: { image_url: 'http://e/results/cup.png' } }, {});
    render(<GalleryStage />);
    expect(await screen.findByRole('slider', { name: 'Before/after divider' })).toBeTruthy();
    expect(screen.queryByRole('radiogroup', { name: 'Show results' })).toBeNull();
  });

  it('names a requested class the answer left out', async () => {
    await addRun('apparel-background-removal', { cloth_class: 'tops,pants,hat,bag' }, response, {});
    render(<GalleryStage />);
    expect(screen.getByText('Not in the answer: bag')).toBeTruthy();
  });
});

describe('Smart crop result', () => {
  const response = { ...envelope, data: { url: 'http://e/results/crop.jpg', retain_location: { x: 0, y: 113, width: 910, height: 910 } } };

  it('draws retain_location on the original, scaled to the displayed photo, with the numbers and the crop beside it', async () => {
    const sizes = vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'crop-original' ? 800 : 0;
    });
    const heights = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'crop-original' ? 600 : 0;
    });
    await addRun('image-cropping', { width: '1080', height: '1080' }, response, {});
    render(<GalleryStage />);
    expect(await screen.findByRole('img', { name: 'Crop' })).toBeTruthy();
    expect(screen.queryByRole('slider', { name: 'Before/after divider' })).toBeNull();
    const original = await screen.findByRole('img', { name: 'Original with the kept window' });
    Object.defineProperty(original, 'naturalWidth', { value: 910 });
    Object.defineProperty(original, 'naturalHeight', { value: 1137 });
    fireEvent.load(original);

    const rect = await screen.findByTestId('retain-rect');
    const k = 600 / 1137;
    expect(Number(rect.getAttribute('data-x'))).toBeCloseTo((800 - 910 * k) / 2, 1);
    expect(Number(rect.getAttribute('data-y'))).toBeCloseTo(113 * k, 1);
    expect(Number(rect.getAttribute('data-width'))).toBeCloseTo(910 * k, 1);
    expect(Number(rect.getAttribute('data-height'))).toBeCloseTo(910 * k, 1);
    expect(screen.getByTestId('retain-label').textContent).toBe('x 0 · y 113 · 910×910');
    expect(screen.getByTestId('crop-view').textContent).toContain('kept 910×910 px at (0, 113)');
    expect(screen.getByTestId('crop-view').textContent).toContain('1080×1080 px, the window scaled up');
    sizes.mockRestore();
    heights.mockRestore();
  });
});

describe('Comparing two results', () => {
  it('shows each result over its own photo, with one divider and one zoom for both', async () => {
    const a = await addRun('commodity-background-removal', {}, { ...envelope, data: { image_url: 'http://e/results/a.png' } }, {});
    const b = await addRun('commodity-background-removal', { return_form: 'whiteBK' }, { ...envelope, data: { image_url: 'http://e/results/b.png' } }, {});
    useGalleryStore.getState().setCompare([a.id, b.id]);
    render(<GalleryStage />);
    const comparison = screen.getByRole('region', { name: 'Comparison' });
    const figures = within(comparison).getAllByRole('figure');
    expect(figures.map((f) => f.getAttribute('aria-label'))).toEqual(['Product background removal: person.jpg · Transparent', 'Product background removal: person.jpg · On white']);
    const dividers = figures.map((f) => within(f).getByRole('slider', { name: 'Before/after divider' }));
    for (const f of figures) {
      expect(await within(f).findByRole('img', { name: 'Before' })).toBeTruthy();
      expect(await within(f).findByRole('img', { name: 'After' })).toBeTruthy();
    }
    // Each before is that item's own photo.
    const befores = figures.map((f) => within(f).getByRole('img', { name: 'Before' }).getAttribute('src'));
    expect(befores[0]).not.toBe(befores[1]);

    fireEvent.keyDown(dividers[1], { key: 'Home' });
    expect(dividers.map((d) => d.getAttribute('aria-valuenow'))).toEqual(['0', '0']);
    const viewers = within(comparison).getAllByTestId('before-after');
    for (const v of viewers) v.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 300, right: 400, bottom: 300, x: 0, y: 0, toJSON: () => ({}) });
    fireEvent.wheel(viewers[0], { deltaY: -400, clientX: 100, clientY: 150 });
    expect(Number(viewers[0].dataset.zoom)).toBeGreaterThan(1.5);
    expect(viewers.map((v) => v.dataset.zoom)).toEqual([viewers[0].dataset.zoom, viewers[0].dataset.zoom]);
    expect(viewers[1].dataset.pan).toBe(viewers[0].dataset.pan);

    fireEvent.click(within(comparison).getByRole('button', { name: 'Close comparison' }));
    expect(screen.queryByRole('region', { name: 'Comparison' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Selected result' })).toBeTruthy();
  });
});

describe('Per-effect views', () => {
  it('shows a face analyzer answer in its own view (per-effect.tsx), not the before and after', async () => {
    const response = { ...envelope, image_width: 40, image_height: 40, face_detail_infos: [{ face_rect: { x: 5, y: 5, width: 20, height: 20 }, face_detail_attributes_info: attributeBlock({ age: 31 }) }] };
    await addRun('face-analyzer', { face_attributes_type: 'Age' }, response, {});
    render(<GalleryStage />);
    expect(await screen.findByRole('list', { name: 'Faces' })).toBeTruthy();
    expect(screen.queryByTestId('before-after')).toBeNull();
  });
});
