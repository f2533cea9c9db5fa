/**
 * Client state of the effect panels (not persisted): each panel's values once touched, the limit problems of
 * its images, and its last run, so switching panels and coming back keeps the photo and the progress.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import type { PreparedImage } from '../../../lib/image-input.ts';
import { serializeValues } from '../utils/form-values.ts';
import { startingDefaults } from '../utils/studio-defaults.ts';
import type { FieldValue, FormValues } from '../utils/form-values.ts';

export interface LastRun {
  startedAt: number;
  finishedAt?: number;
  /** Async endpoints: the task being polled. */
  taskId?: string;
}

interface PanelState {
  values: Record<string, FormValues | undefined>;
  imageProblems: Record<string, Record<string, string[] | undefined> | undefined>;
  /** slug → image field → the copy converted/downsized in the browser to fit that effect's limits. */
  prepared: Record<string, Record<string, PreparedImage | undefined> | undefined>;
  lastRun: Record<string, LastRun | undefined>;
  /** The photo most recently added in any panel; an untouched panel starts with it. */
  lastPhoto?: File;
  setValue: (endpoint: Endpoint, field: string, value: FieldValue) => void;
  setImageProblems: (slug: string, field: string, problems: string[] | undefined, prepared?: PreparedImage) => void;
  reset: (endpoint: Endpoint) => void;
  setLastRun: (slug: string, run: LastRun | undefined) => void;
  /** Run as soon as a dropped photo is checked (remembered for the session). */
  runOnDrop: boolean;
  setRunOnDrop: (on: boolean) => void;
  /** slug → a dropped photo is waiting to be run once it is checked (run on drop). */
  autoRun: Record<string, File | undefined>;
  setAutoRun: (slug: string, file: File | undefined) => void;
  /** "Use this result as the next input": the result becomes every panel's photo, its item the chain's parent. */
  takeAsInput: (file: File, parentId: string) => void;
  /** slug → when a batch last started there: the panel's last run (its "Done" line or error) no longer applies. */
  batchStarted: Record<string, number | undefined>;
  markBatchStarted: (slug: string) => void;
}

/** A photo that came from a gallery result → that item's id, so the next run is kept as its child. */
const chainParents = new WeakMap<File, string>();
export const chainParentOf = (file: File): string | undefined => chainParents.get(file);
/** A copy fitted to an effect's limits → the photo it was made from, kept beside the result for full-size work. */
const originals = new WeakMap<File, File>();
export const originalOf = (sent: File): File | undefined => originals.get(sent);
export const linkOriginal = (original: File, sent: File) => originals.set(sent, original);
export const linkChain = (from: File, to: File) => {
  const parent = chainParents.get(from);
  if (parent) chainParents.set(to, parent);
};

const startingValues = (endpoint: Endpoint, lastPhoto: File | undefined): FormValues => {
  const values = startingDefaults(endpoint);
  if (lastPhoto && endpoint.fields.image?.kind === 'image') values.image = lastPhoto;
  return values;
};

export const usePanelStore = create<PanelState>()((set) => ({
  values: {},
  imageProblems: {},
  prepared: {},
  lastRun: {},
  setValue: (endpoint, field, value) =>
    set((s) => ({
      values: {
        ...s.values,
        [endpoint.slug]: { ...(s.values[endpoint.slug] ?? startingValues(endpoint, s.lastPhoto)), [field]: value },
      },
      lastPhoto: field === 'image' && value instanceof File ? value : s.lastPhoto,
      // A new photo clears the last run's "Done" line: it spoke of the previous photo.
      lastRun: endpoint.fields[field]?.kind === 'image' ? { ...s.lastRun, [endpoint.slug]: undefined } : s.lastRun,
    })),
  setImageProblems: (slug, field, problems, prepared) =>
    set((s) => ({
      imageProblems: { ...s.imageProblems, [slug]: { ...(s.imageProblems[slug] ?? {}), [field]: problems } },
      prepared: { ...s.prepared, [slug]: { ...(s.prepared[slug] ?? {}), [field]: prepared } },
    })),
  reset: (endpoint) =>
    set((s) => {
      const image = s.values[endpoint.slug]?.image;
      return { values: { ...s.values, [endpoint.slug]: { ...startingDefaults(endpoint), image } } };
    }),
  setLastRun: (slug, run) => set((s) => ({ lastRun: { ...s.lastRun, [slug]: run } })),
  runOnDrop: false,
  setRunOnDrop: (runOnDrop) => set({ runOnDrop }),
  autoRun: {},
  setAutoRun: (slug, file) => set((s) => ({ autoRun: { ...s.autoRun, [slug]: file } })),
  takeAsInput: (file, parentId) => {
    chainParents.set(file, parentId);
    set((s) => ({
      lastPhoto: file,
      values: Object.fromEntries(Object.entries(s.values).map(([slug, v]) => [slug, v && 'image' in v ? { ...v, image: file } : v])),
      lastRun: {},
    }));
  },
  batchStarted: {},
  markBatchStarted: (slug) => set((s) => ({ batchStarted: { ...s.batchStarted, [slug]: Date.now() }, lastRun: { ...s.lastRun, [slug]: undefined } })),
}));

/** The values a panel shows: what was set there, or the contract's defaults plus the last photo. */
export function usePanelValues(endpoint: Endpoint): FormValues {
  const stored = usePanelStore((s) => s.values[endpoint.slug]);
  const lastPhoto = usePanelStore((s) => s.lastPhoto);
  return useMemo(() => stored ?? startingValues(endpoint, lastPhoto), [stored, endpoint, lastPhoto]);
}

/** The photo field a dropped or pasted photo goes to: the endpoint's `image`, or its first image field. */
export const photoField = (endpoint: Endpoint): string | undefined =>
  endpoint.fields.image?.kind === 'image' ? 'image' : Object.keys(endpoint.fields).find((n) => endpoint.fields[n].kind === 'image');

/** A photo dropped or pasted anywhere on the page becomes the open panel's photo (and runs, with run on drop). */
export function givePhoto(endpoint: Endpoint, file: File): void {
  const field = photoField(endpoint);
  if (!field) return;
  const s = usePanelStore.getState();
  s.setImageProblems(endpoint.slug, field, undefined);
  s.setValue(endpoint, field, file);
  if (s.runOnDrop) s.setAutoRun(endpoint.slug, file);
}

/** The options the open panel would send now, for a batch that runs them on each of several photos. */
export function panelParams(endpoint: Endpoint): Record<string, string> {
  const s = usePanelStore.getState();
  return serializeValues(endpoint, s.values[endpoint.slug] ?? startingValues(endpoint, s.lastPhoto)).params;
}
