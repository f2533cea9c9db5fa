import { Blob as NodeBlob } from 'node:buffer';
import { waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getBlob } from '../features/gallery/stores/idb-storage.ts';
import { useGalleryStore } from '../features/gallery/stores/gallery-store.ts';
import { renderWithQuery } from '../testing/render.tsx';
import { TaskWatcher } from './task-watcher.tsx';

const envelope = { request_id: 'req-7', log_id: 'log-7', error_detail: { code: '', code_message: '', message: '' } };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const photo = () => new NodeBlob([new Uint8Array([1])], { type: 'image/png' }) as unknown as Blob;

async function pendingItem(taskId: string) {
  await useGalleryStore.persist.rehydrate();
  return useGalleryStore.getState().addItem({ slug: 'ai-red-lip-gloss', params: {}, before: photo(), afters: [], response: { task_id: taskId }, status: 'pending', taskId });
}

beforeEach(() => useGalleryStore.setState({ items: [], selectedId: null }));
afterEach(() => vi.unstubAllGlobals());

describe('TaskWatcher', () => {
  it('polls a pending task through queued and processing, then stores its result', async () => {
    const answers = [{ task_status: 0 }, { task_status: 1 }, { task_status: 2, data: { result_urls: ['http://127.0.0.1:8787/results/t1.png'] } }];
    const fetch = vi.fn(async (url: string) =>
      url.startsWith('/api/') ? json(200, { ...envelope, ...(answers.shift() ?? { task_status: 2 }) }) : new Response(new Uint8Array([4, 2]), { headers: { 'content-type': 'image/png' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const item = await pendingItem('t1');
    renderWithQuery(<TaskWatcher />);

    await waitFor(() => expect(useGalleryStore.getState().items[0].status).toBe('done'), { timeout: 5000 });
    const done = useGalleryStore.getState().items[0];
    expect(done.id).toBe(item.id);
    expect(done.afters).toHaveLength(1);
    expect(Array.from(new Uint8Array(await (await getBlob(done.afters[0].key))!.arrayBuffer()))).toEqual([4, 2]);
    const polls = fetch.mock.calls.filter(([u]) => u.startsWith('/api/common/query-async-task-result?task_id=t1'));
    expect(polls).toHaveLength(3);
    expect(fetch.mock.calls.at(-1)![0]).toBe('/results/t1.png');
  }, 10_000);

  it('marks the item failed with the task error', async () => {
    const failed = { ...envelope, task_status: 2, error_detail: { code: 'ERROR_NO_FACE_IN_FILE', code_message: 'No face in image', message: 'no face found' } };
    vi.stubGlobal('fetch', vi.fn(async () => json(422, failed)));
    await pendingItem('t2');
    renderWithQuery(<TaskWatcher />);
    await waitFor(() => expect(useGalleryStore.getState().items[0].status).toBe('failed'));
    expect(useGalleryStore.getState().items[0].error).toEqual({ code: 'ERROR_NO_FACE_IN_FILE', code_message: 'No face in image', message: 'no face found', status: 422, request_id: 'req-7' });
  });

  it('keeps a task pending while the engine restarts, and shows it done when the engine answers again', async () => {
    // The engine goes away mid-task (unreachable, then its gateway's 502), comes back, and had finished it.
    let polls = 0;
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      if (!url.startsWith('/api/')) return new Response(new Uint8Array([4, 2]), { headers: { 'content-type': 'image/png' } });
      polls++;
      if (polls === 1) return json(200, { ...envelope, task_status: 1 });
      if (polls === 2) throw new TypeError('Failed to fetch');
      if (polls === 3) return new Response('Bad Gateway', { status: 502 });
      return json(200, { ...envelope, task_status: 2, data: { result_urls: ['/results/t3.png'] } });
    }));
    await pendingItem('t3');
    renderWithQuery(<TaskWatcher />);
    await waitFor(() => expect(polls).toBeGreaterThanOrEqual(3), { timeout: 8000 });
    expect(useGalleryStore.getState().items[0].status).toBe('pending');
    await waitFor(() => expect(useGalleryStore.getState().items[0].status).toBe('done'), { timeout: 12_000 });
    expect(useGalleryStore.getState().items[0].error).toBeUndefined();
  }, 20_000);
});
