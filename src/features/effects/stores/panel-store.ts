/**
 * Client state of the effect panels (not persisted): each panel's values once touched, the limit problems of
 * its images, and its last run, so switching panels and coming back keeps the photo and the progress.
 */
import { useMemo } from 'react';
import { create } from 'zustand';
import type { Endpoint } from '../../../../contract/endpoint.ts';
import { initialValues } from '../utils/form-values.ts';
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
  lastRun: Record<string, LastRun | undefined>;
  /** The photo most recently added in any panel; an untouched panel starts with it. */
  lastPhoto?: File;
  setValue: (endpoint: Endpoint, field: string, value: FieldValue) => void;
  setImageProblems: (slug: string, field: string, problems: string[] | undefined) => void;
  reset: (endpoint: Endpoint) => void;
  setLastRun: (slug: string, run: LastRun | undefined) => void;
}

const startingValues = (endpoint: Endpoint, lastPhoto: File | undefined): FormValues => {
  const values = initialValues(endpoint);
  if (lastPhoto && endpoint.fields.image?.kind === 'image') values.image = lastPhoto;
  return values;
};

export const usePanelStore = create<PanelState>()((set) => ({
  values: {},
  imageProblems: {},
  lastRun: {},
  setValue: (endpoint, field, value) =>
    set((s) => ({
      values: {
        ...s.values,
        [endpoint.slug]: { ...(s.values[endpoint.slug] ?? startingValues(endpoint, s.lastPhoto)), [field]: value },
      },
      lastPhoto: field === 'image' && value instanceof File ? value : s.lastPhoto,
    })),
  setImageProblems: (slug, field, problems) =>
    set((s) => ({ imageProblems: { ...s.imageProblems, [slug]: { ...(s.imageProblems[slug] ?? {}), [field]: problems } } })),
  reset: (endpoint) =>
    set((s) => {
      const image = s.values[endpoint.slug]?.image;
      return { values: { ...s.values, [endpoint.slug]: { ...initialValues(endpoint), image } } };
    }),
  setLastRun: (slug, run) => set((s) => ({ lastRun: { ...s.lastRun, [slug]: run } })),
}));

/** The values a panel shows: what was set there, or the contract's defaults plus the last photo. */
export function usePanelValues(endpoint: Endpoint): FormValues {
  const stored = usePanelStore((s) => s.values[endpoint.slug]);
  const lastPhoto = usePanelStore((s) => s.lastPhoto);
  return useMemo(() => stored ?? startingValues(endpoint, lastPhoto), [stored, endpoint, lastPhoto]);
}
