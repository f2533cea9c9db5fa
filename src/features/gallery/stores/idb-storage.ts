/**
 * IndexedDB through idb-keyval: one object store holds the gallery's persisted state (a zustand StateStorage)
 * and the images themselves as Blobs, plus each item's raw JSON answer. Opened lazily, on first use.
 */
import { createStore, del, delMany, get, set } from 'idb-keyval';
import type { UseStore } from 'idb-keyval';
import type { StateStorage } from 'zustand/middleware';

export const DB_NAME = 'atelier-studio';
const STORE_NAME = 'gallery';

let store: UseStore | undefined;
const db = () => (store ??= createStore(DB_NAME, STORE_NAME));

export const idbStateStorage: StateStorage = {
  getItem: async (name) => (await get<string>(name, db())) ?? null,
  setItem: (name, value) => set(name, value, db()),
  removeItem: (name) => del(name, db()),
};

export const putBlob = (key: string, blob: Blob) => set(key, blob, db());
export const getBlob = (key: string) => get<Blob>(key, db());
export const putJson = (key: string, value: unknown) => set(key, value, db());
export const getJson = (key: string) => get<unknown>(key, db());
export const deleteKeys = (keys: string[]) => delMany(keys, db());
