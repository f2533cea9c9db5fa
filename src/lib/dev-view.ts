/**
 * The developer view: technical field names, the endpoint path, the JSON sent and a ready-to-copy curl command.
 * Off by default (the studio speaks plainly); remembered in localStorage.
 */
import { create } from 'zustand';

const KEY = 'atelier-dev-view';
const read = () => {
  try {
    return globalThis.localStorage?.getItem(KEY) === '1';
  } catch {
    return false;
  }
};

export const useDevView = create<{ on: boolean; toggle: () => void }>()((set, get) => ({
  on: read(),
  toggle: () => {
    const on = !get().on;
    try {
      globalThis.localStorage?.setItem(KEY, on ? '1' : '0');
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    set({ on });
  },
}));
