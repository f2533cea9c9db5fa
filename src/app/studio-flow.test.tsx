/**
 * The studio as a designer drives it, in jsdom: a run shows the photo with its progress and elapsed time and a
 * placeholder card, can be cancelled and retried; the developer view; undo of a delete; the engine-down and disk-full banners over a usable gallery.
 */
import { Blob as NodeBlob } from 'node:buffer';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { usePanelStore } from '../features/effects/stores/panel-store.ts';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';
import { useDevView } from '../lib/dev-view.ts';
import { pngHeader } from '../testing/image-bytes.ts';
import { renderWithQuery } from '../testing/render.tsx';
import { App } from './app.tsx';
import { useBatch } from './batch.ts';

const envelope = { request_id: 'req-9', log_id: 'log-9', error_detail: { code: '', code_message: '', message: '' } };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

/** The engine: /healthz ok; each POST waits until answered (or aborted); result images are two bytes. */
function fakeEngine() {
  const posts: { init: RequestInit; answer: (r: Response) => void }[] = [];
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    if (url === '/healthz') return Promise.resolve(json(200, { status: 'ok', ready: true }));
    if (url.startsWith('/results/')) return Promise.resolve(new Response(new Uint8Array([1, 2]), { headers: { 'content-type': 'image/png' } }));
    return new Promise<Response>((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      posts.push({ init: init!, answer: resolve });
    });
  });
  vi.stubGlobal('fetch', fetch);
  return posts;
}

async function addPhoto(name = 'car.png') {
  const file = new File([pngHeader(640, 480)], name, { type: 'image/png' });
  fireEvent.change(screen.getByLabelText('Upload photo'), { target: { files: [file] } });
  await screen.findByText('Fits the limits', undefined, { timeout: 5000 });
}

let urls = 0;
beforeAll(() => {
  URL.createObjectURL = vi.fn(() => `blob:test/${++urls}`);
  URL.revokeObjectURL = vi.fn();
});
afterAll(() => vi.restoreAllMocks());

beforeEach(async () => {
  await useGalleryStore.persist.rehydrate();
  useGalleryStore.setState({ items: [], selectedId: null, trash: null, checked: [], compare: null });
  usePanelStore.setState({ values: {}, imageProblems: {}, prepared: {}, lastRun: {}, lastPhoto: undefined, autoRun: {}, runOnDrop: false });
  useDevView.setState({ on: false });
  window.location.hash = 'commodity-background-removal';
});
afterEach(() => vi.unstubAllGlobals());

describe('a run in progress', { timeout: 30_000 }, () => {
  it('shows the photo with progress and elapsed time and a placeholder card; cancel, then retry to a result', async () => {
    const posts = fakeEngine();
    renderWithQuery(<App />);
    await addPhoto('car.png');
    fireEvent.click(screen.getByTestId('run-button'));
    const stage = await screen.findByRole('region', { name: 'Selected result' }, { timeout: 4000 });
    expect(await within(stage).findByTestId('stage-progress')).toBeTruthy();
    expect(within(stage).getByTestId('stage-progress').textContent).toMatch(/Processing… (under 0\.1|\d\.\d) s/);
    expect(await within(stage).findByRole('img', { name: 'Before' })).toBeTruthy();
    const card = within(screen.getByRole('list', { name: 'Gallery items' })).getByRole('button');
    expect(card.getAttribute('aria-label')).toMatch(/^Product background removal: car\.png · Transparent, .*running$/);

    fireEvent.click(within(stage).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Selected result' })).getAllByText('Cancelled').length).toBeGreaterThan(0));
    expect(screen.getAllByText(/You cancelled this run/).length).toBeGreaterThan(0);

    fireEvent.click(within(screen.getByRole('region', { name: 'Selected result' })).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect((posts[1].init.body as FormData).get('image')).toBeTruthy();
    posts[1].answer(json(200, { ...envelope, data: { image_url: 'http://127.0.0.1:8787/results/r.png' } }));
    expect(await screen.findByRole('slider', { name: 'Before/after divider' }, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Selected result' }).textContent).toMatch(/took (under 0\.1|\d\.\d) s/);
    expect(useGalleryStore.getState().items.map((it) => it.status)).toEqual(['done', 'failed']);
  });

  it('clears the last "Done" line when another photo is chosen, and runs with Ctrl+Enter from anywhere', async () => {
    const posts = fakeEngine();
    renderWithQuery(<App />);
    await addPhoto('car.png');
    fireEvent.keyDown(document.body, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(posts).toHaveLength(1), { timeout: 4000 });
    posts[0].answer(json(200, { ...envelope, data: { image_url: 'http://127.0.0.1:8787/results/a.png' } }));
    expect(await screen.findByText(/^Done in .*The result is in the gallery\.$/, undefined, { timeout: 4000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Replace' }));
    fireEvent.change(screen.getByLabelText('Upload photo'), { target: { files: [new File([pngHeader(300, 200)], 'boat.png', { type: 'image/png' })] } });
    await screen.findByText('boat.png');
    expect(screen.queryByText(/^Done in /)).toBeNull();
  });
});

describe('a batch after a failed run', { timeout: 30_000 }, () => {
  it('takes the failed run\'s error and Retry off the panel when several photos are dropped there', async () => {
    const posts = fakeEngine();
    renderWithQuery(<App />);
    await addPhoto('car.png');
    fireEvent.click(screen.getByTestId('run-button'));
    await waitFor(() => expect(posts).toHaveLength(1), { timeout: 4000 });
    posts[0].answer(new Response('upstream gone', { status: 500 }));
    const panel = screen.getByTestId('run-button').closest('footer')!;
    expect(await within(panel as HTMLElement).findByRole('button', { name: 'Retry' }, { timeout: 4000 })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Replace' }));
    const photos = ['boat.png', 'bike.png'].map((n) => new File([pngHeader(320, 240)], n, { type: 'image/png' }));
    fireEvent.change(screen.getByLabelText('Upload photo'), { target: { files: photos } });
    await waitFor(() => expect(within(panel as HTMLElement).queryByRole('button', { name: 'Retry' })).toBeNull(), { timeout: 4000 });

    // The batch outlives the panel: answer both runs so that none lands in a later test's gallery.
    for (const n of [2, 3]) {
      await waitFor(() => expect(posts).toHaveLength(n), { timeout: 4000 });
      posts[n - 1].answer(new Response('upstream gone', { status: 500 }));
    }
    await waitFor(() => expect(useBatch.getState().files.map((f) => f.state)).toEqual(['failed', 'failed']), { timeout: 4000 });
  });
});

describe('a batch stopped', { timeout: 30_000 }, () => {
  it('aborts the photo being sent and sends none of the rest', async () => {
    const posts = fakeEngine();
    renderWithQuery(<App />);
    const photos = ['a.png', 'b.png', 'c.png'].map((n) => new File([pngHeader(320, 240)], n, { type: 'image/png' }));
    fireEvent.change(screen.getByLabelText('Upload photo'), { target: { files: photos } });
    await waitFor(() => expect(posts).toHaveLength(1), { timeout: 4000 });
    const batch = screen.getByRole('region', { name: 'Batch' });
    fireEvent.click(within(batch).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(within(batch).getAllByTestId('batch-row').map((r) => r.dataset.state)).toEqual(['failed', 'stopped', 'stopped']), { timeout: 4000 });
    expect(within(batch).getAllByTestId('batch-row')[0].textContent).toContain('You cancelled this run');
    expect(within(batch).queryByRole('button', { name: 'Stop' })).toBeNull();
    await new Promise((r) => setTimeout(r, 200));
    expect(posts).toHaveLength(1);
  });
});

describe('plain words and the developer view', { timeout: 30_000 }, () => {
  it('speaks plainly by default; the developer view shows names, JSON and a curl command', async () => {
    fakeEngine();
    renderWithQuery(<App />);
    expect(screen.queryByText('/api/cutout/general/commodity-background-removal', { exact: false })).toBeNull();
    expect(screen.queryByText('Instant')).toBeNull();
    expect(screen.getByTestId('typical-time').textContent).toBe('Not run here yet');
    expect(screen.getByRole('radio', { name: 'Trimmed' })).toBeTruthy();
    await addPhoto('car.png');
    fireEvent.click(screen.getByRole('radio', { name: 'On white' }));

    fireEvent.click(screen.getByRole('button', { name: 'Developer view' }));
    expect(screen.getByRole('radio', { name: 'whiteBK', checked: true })).toBeTruthy();
    expect(screen.getByText('return_form')).toBeTruthy();
    expect(screen.getByLabelText('Fields sent (JSON)').textContent).toBe(JSON.stringify({ image: '(file) car.png', return_form: 'whiteBK' }, null, 2));
    expect(screen.getByLabelText('curl command').textContent).toBe(
      `curl -X POST -F image=@car.png -F return_form=whiteBK ${window.location.origin}/api/cutout/general/commodity-background-removal`,
    );
  });

  it('keeps the gallery browsable and downloadable when the engine does not answer, under a banner', async () => {
    const add = (name: string) =>
      useGalleryStore.getState().addItem({
        slug: 'commodity-background-removal', params: {}, before: Object.assign(new NodeBlob([new Uint8Array(10)], { type: 'image/jpeg' }) as unknown as Blob, { name }),
        afters: [{ label: 'Result', blob: new NodeBlob([new Uint8Array([1, 2])], { type: 'image/png' }) as unknown as Blob }], response: {}, status: 'done',
      });
    await add('car.jpg');
    await add('cup.jpg');
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    renderWithQuery(<App />);
    const banner = await screen.findByRole('alert', { name: 'The engine is not answering' });
    expect(within(banner).getByRole('button', { name: 'Try again now' })).toBeTruthy();
    // The panel stays, its Run off with the reason; the gallery is there, and a card opens its result with a download.
    expect(screen.getByTestId('run-button').hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('The engine is not answering; Run comes back with it.')).toBeTruthy();
    const strip = screen.getByRole('list', { name: 'Gallery items' });
    expect(within(strip).getAllByRole('button')).toHaveLength(2);
    fireEvent.click(within(strip).getAllByRole('button')[1]);
    const stage = screen.getByRole('region', { name: 'Selected result' });
    const download = await within(stage).findByRole('link', { name: 'Download' });
    expect(download.getAttribute('download')).toMatch(/^car/);
  });

  it('shows the chosen effect\'s latest result, not the previous effect\'s, when another effect is chosen', async () => {
    fakeEngine();
    const add = (slug: string, name: string) =>
      useGalleryStore.getState().addItem({
        slug, params: {}, before: Object.assign(new NodeBlob([new Uint8Array(10)], { type: 'image/jpeg' }) as unknown as Blob, { name }),
        afters: [{ label: 'Result', blob: new NodeBlob([new Uint8Array([1, 2])], { type: 'image/png' }) as unknown as Blob }], response: {}, status: 'done',
      });
    await add('face-beauty', 'anna.jpg');
    const car = await add('commodity-background-removal', 'car.jpg');
    useGalleryStore.getState().select(car.id);
    renderWithQuery(<App />);
    const go = (slug: string) => act(() => { window.location.hash = slug; window.dispatchEvent(new HashChangeEvent('hashchange')); });
    const caption = async () => (await screen.findByTestId('item-caption', undefined, { timeout: 5000 })).textContent;
    expect(await caption()).toContain('car.jpg');
    go('face-beauty');
    await waitFor(async () => expect(await caption()).toContain('anna.jpg'));
    go('lips-color-changer');
    expect(await screen.findByText('Results appear here')).toBeTruthy();
    go('commodity-background-removal');
    await waitFor(async () => expect(await caption()).toContain('car.jpg'));
  });

  it('says so under a banner when the engine\'s disk is full', async () => {
    vi.stubGlobal('fetch', vi.fn(async (url: string) => (url === '/healthz' ? json(200, { status: 'storage_full', ready: true }) : json(404, {}))));
    renderWithQuery(<App />);
    expect(await screen.findByRole('status', { name: 'The engine’s disk is full' })).toBeTruthy();
    expect(screen.queryByRole('alert', { name: 'The engine is not answering' })).toBeNull();
  });
});

describe('gallery', { timeout: 30_000 }, () => {
  it('names cards by photo and options, filters by effect, shows storage, and undoes a delete', async () => {
    fakeEngine();
    const add = (slug: string, name: string, params: Record<string, string>) =>
      useGalleryStore.getState().addItem({ slug, params, before: new File([new Uint8Array(1000)], name, { type: 'image/png' }), afters: [], response: {}, status: 'done' });
    await add('commodity-background-removal', 'car.jpg', { return_form: 'whiteBK' });
    await add('image-cropping', 'beach.jpg', { width: '910', height: '512' });
    renderWithQuery(<App />);
    const strip = () => screen.getByRole('list', { name: 'Gallery items' });
    expect(within(strip()).getAllByRole('button').map((b) => b.getAttribute('aria-label')!.split(',')[0])).toEqual([
      'Smart crop: beach.jpg · 910×512',
      'Product background removal: car.jpg · On white',
    ]);
    expect(screen.getByTestId('storage-used').textContent).toBe('2 KB stored');
    fireEvent.change(screen.getByRole('combobox', { name: 'Show effect' }), { target: { value: 'image-cropping' } });
    expect(within(strip()).getAllByRole('button')).toHaveLength(1);
    fireEvent.change(screen.getByRole('combobox', { name: 'Show effect' }), { target: { value: '' } });

    fireEvent.click(within(strip()).getAllByRole('button')[0]);
    fireEvent.click(within(screen.getByRole('region', { name: 'Selected result' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(strip()).getAllByRole('button')).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(within(strip()).getAllByRole('button')).toHaveLength(2));

    // Tick two and compare them side by side.
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    for (const b of within(strip()).getAllByRole('button')) fireEvent.click(b);
    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
    const comparison = await screen.findByRole('region', { name: 'Comparison' });
    expect(within(comparison).getAllByRole('figure')).toHaveLength(2);
    act(() => useGalleryStore.getState().setCompare(null));
  });
});
