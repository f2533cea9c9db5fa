/**
 * The gallery: one zustand store made of two slices (items, selection) with `persist` on the combined store.
 * Only metadata and blob keys are persisted (partialize); the before/after images are Blobs in IndexedDB and
 * the raw answers are stored beside them, read on demand.
 */
import { create } from 'zustand';
import type { StateCreator } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { StateStorage } from 'zustand/middleware';
import type { ShownError } from '../../../lib/api-client.ts';
import { newId } from '../../../lib/format.ts';
import type { ResultBlob } from '../../../lib/results.ts';
import { deleteKeys, idbStateStorage, putBlob, putJson } from './idb-storage.ts';

export interface StoredImage {
  /** IndexedDB key of the Blob. */
  key: string;
  label: string;
  type: string;
  size: number;
  name?: string;
}

export type ItemStatus = 'pending' | 'done' | 'failed';

export interface GalleryItem {
  id: string;
  slug: string;
  /** The non-image fields as sent. */
  params: Record<string, string>;
  createdAt: number;
  completedAt?: number;
  status: ItemStatus;
  /** Async runs: the task to poll and its last known status. */
  taskId?: string;
  taskStatus?: 0 | 1 | 2;
  before: StoredImage;
  /** The photo as the user gave it, where the copy sent (before) was fitted to the limits: full-size downloads. */
  original?: StoredImage;
  afters: StoredImage[];
  /** IndexedDB key of the raw JSON answer(s). */
  responseKey: string;
  error?: ShownError;
  /** The image field the photo was sent as (for Retry); 'image' when absent. */
  imageField?: string;
  /** The item whose result was used as this run's photo ("use this result as the next input"). */
  parentId?: string;
}

export interface NewItem {
  slug: string;
  params: Record<string, string>;
  before: Blob & { name?: string };
  original?: Blob & { name?: string };
  afters: ResultBlob[];
  response: unknown;
  status: ItemStatus;
  taskId?: string;
  imageField?: string;
  parentId?: string;
}

export interface ItemsSlice {
  items: GalleryItem[];
  addItem: (item: NewItem) => Promise<GalleryItem>;
  updateItem: (id: string, patch: Partial<Pick<GalleryItem, 'taskStatus' | 'status' | 'error'>>) => void;
  /** A placeholder whose async submit was accepted: from now on the task watcher polls it. */
  attachTask: (id: string, taskId: string, response: unknown) => Promise<void>;
  completeItem: (id: string, afters: ResultBlob[], response: unknown) => Promise<void>;
  failItem: (id: string, error: ShownError, response?: unknown) => Promise<void>;
  removeItem: (id: string) => Promise<void>;
  /** Deleted items wait here (images kept) until the next delete or purge, so a delete can be undone. */
  trash: { items: GalleryItem[]; positions: number[] } | null;
  trashItems: (ids: string[]) => Promise<void>;
  undoTrash: () => void;
  purgeTrash: () => Promise<void>;
}

export interface SelectionSlice {
  selectedId: string | null;
  select: (id: string | null) => void;
  /** Items ticked for download, delete or compare (not persisted). */
  checked: string[];
  toggleChecked: (id: string) => void;
  setChecked: (ids: string[]) => void;
  /** Two items shown side by side on the stage instead of the selected one. */
  compare: [string, string] | null;
  setCompare: (ids: [string, string] | null) => void;
}

export type GalleryState = ItemsSlice & SelectionSlice;
export type PersistedGallery = Pick<GalleryState, 'items' | 'selectedId'>;

export const GALLERY_VERSION = 1;

async function storeImages(id: string, afters: ResultBlob[], from = 0): Promise<StoredImage[]> {
  return Promise.all(
    afters.map(async ({ label, blob }, i) => {
      const key = `blob:${id}:after:${from + i}`;
      await putBlob(key, blob);
      return { key, label, type: blob.type, size: blob.size };
    }),
  );
}

const createItemsSlice: StateCreator<GalleryState, [], [], ItemsSlice> = (set, get) => ({
  items: [],
  addItem: async ({ slug, params, before, original, afters, response, status, taskId, imageField, parentId }) => {
    const id = newId();
    const beforeKey = `blob:${id}:before`;
    const responseKey = `json:${id}`;
    // Blobs first: the metadata must never point at images that are not stored yet.
    await putBlob(beforeKey, before);
    const originalKey = `blob:${id}:original`;
    if (original) await putBlob(originalKey, original);
    const stored = await storeImages(id, afters);
    await putJson(responseKey, response);
    const item: GalleryItem = {
      id,
      slug,
      params,
      createdAt: Date.now(),
      completedAt: status === 'done' ? Date.now() : undefined,
      status,
      taskId,
      taskStatus: taskId ? 0 : undefined,
      before: { key: beforeKey, label: 'Before', type: before.type, size: before.size, name: before.name },
      original: original ? { key: originalKey, label: 'Original', type: original.type, size: original.size, name: original.name } : undefined,
      afters: stored,
      responseKey,
      imageField,
      parentId,
    };
    set((s) => ({ items: [item, ...s.items] }));
    return item;
  },
  updateItem: (id, patch) => set((s) => ({ items: s.items.map((it) => (it.id === id ? { ...it, ...patch } : it)) })),
  attachTask: async (id, taskId, response) => {
    const item = get().items.find((it) => it.id === id);
    if (!item) return;
    await putJson(item.responseKey, response);
    set((s) => ({ items: s.items.map((it) => (it.id === id ? { ...it, taskId, taskStatus: 0 } : it)) }));
  },
  completeItem: async (id, afters, response) => {
    const item = get().items.find((it) => it.id === id);
    if (!item) return;
    const stored = await storeImages(id, afters, item.afters.length);
    await putJson(item.responseKey, response);
    set((s) => ({
      items: s.items.map((it) => (it.id === id ? { ...it, status: 'done', taskStatus: 2, completedAt: Date.now(), afters: [...it.afters, ...stored] } : it)),
    }));
  },
  failItem: async (id, error, response) => {
    const item = get().items.find((it) => it.id === id);
    if (!item) return;
    if (response !== undefined) await putJson(item.responseKey, response);
    set((s) => ({ items: s.items.map((it) => (it.id === id ? { ...it, status: 'failed', completedAt: Date.now(), error } : it)) }));
  },
  removeItem: async (id) => {
    const item = get().items.find((it) => it.id === id);
    if (!item) return;
    set((s) => {
      const items = s.items.filter((it) => it.id !== id);
      const i = s.items.findIndex((it) => it.id === id);
      const selectedId = s.selectedId === id ? (items[Math.min(i, items.length - 1)]?.id ?? null) : s.selectedId;
      return { items, selectedId };
    });
    await deleteKeys([item.before.key, ...(item.original ? [item.original.key] : []), ...item.afters.map((a) => a.key), item.responseKey]);
  },
  trash: null,
  trashItems: async (ids) => {
    await get().purgeTrash();
    set((s) => {
      const gone = new Set(ids);
      const positions = s.items.flatMap((it, i) => (gone.has(it.id) ? [i] : []));
      const items = s.items.filter((it) => !gone.has(it.id));
      const first = positions[0] ?? 0;
      const selectedId = s.selectedId && gone.has(s.selectedId) ? (items[Math.min(first, items.length - 1)]?.id ?? null) : s.selectedId;
      return {
        items,
        selectedId,
        trash: { items: positions.map((i) => s.items[i]), positions },
        checked: s.checked.filter((id) => !gone.has(id)),
        compare: s.compare && s.compare.some((id) => gone.has(id)) ? null : s.compare,
      };
    });
  },
  undoTrash: () =>
    set((s) => {
      if (!s.trash) return {};
      const items = [...s.items];
      s.trash.positions.forEach((pos, k) => items.splice(Math.min(pos, items.length), 0, s.trash!.items[k]));
      return { items, trash: null, selectedId: s.trash.items[0]?.id ?? s.selectedId };
    }),
  purgeTrash: async () => {
    const trash = get().trash;
    if (!trash) return;
    set({ trash: null });
    await deleteKeys(trash.items.flatMap((it) => [it.before.key, ...(it.original ? [it.original.key] : []), ...it.afters.map((a) => a.key), it.responseKey]));
  },
});

const createSelectionSlice: StateCreator<GalleryState, [], [], SelectionSlice> = (set) => ({
  selectedId: null,
  select: (selectedId) => set({ selectedId, compare: null }),
  checked: [],
  toggleChecked: (id) => set((s) => ({ checked: s.checked.includes(id) ? s.checked.filter((c) => c !== id) : [...s.checked, id] })),
  setChecked: (checked) => set({ checked }),
  compare: null,
  setCompare: (compare) => set({ compare }),
});

const isItem = (v: unknown): v is GalleryItem => {
  const it = v as Partial<GalleryItem> | null;
  return !!it && typeof it.id === 'string' && typeof it.slug === 'string' && typeof it.before?.key === 'string' && Array.isArray(it.afters);
};

/**
 * From older persisted shapes to version 1. Version 0 (the unreleased prototype) kept `selected` instead of
 * `selectedId` and had no `status`; anything unrecognisable is dropped rather than crash the studio.
 */
export function migrateGallery(persisted: unknown, version: number): PersistedGallery {
  const p = (persisted ?? {}) as Record<string, unknown>;
  const raw = Array.isArray(p.items) ? p.items : [];
  const items = raw
    .map((it) => (version < 1 && it && typeof it === 'object' ? { status: 'done', params: {}, ...(it as object) } : it))
    .filter(isItem);
  const selected = (version < 1 ? p.selected : p.selectedId) as unknown;
  const selectedId = typeof selected === 'string' && items.some((it) => it.id === selected) ? selected : (items[0]?.id ?? null);
  return { items, selectedId };
}

export function createGalleryStore(options: { name?: string; storage?: StateStorage } = {}) {
  return create<GalleryState>()(
    persist((...a) => ({ ...createItemsSlice(...a), ...createSelectionSlice(...a) }), {
      name: options.name ?? 'gallery-state',
      storage: createJSONStorage(() => options.storage ?? idbStateStorage),
      partialize: (s): PersistedGallery => ({ items: s.items, selectedId: s.selectedId }),
      version: GALLERY_VERSION,
      migrate: migrateGallery,
      // A sync run in flight when the page was left cannot be picked up again: say so instead of spinning.
      onRehydrateStorage: () => (state) => {
        for (const it of state?.items ?? []) {
          if (it.status === 'pending' && !it.taskId) {
            void state!.failItem(it.id, { code: 'STUDIO_INTERRUPTED', code_message: 'Interrupted', message: 'The page was reloaded or closed while this ran. Retry runs it again.' });
          }
        }
      },
    }),
  );
}

export const useGalleryStore = createGalleryStore();
