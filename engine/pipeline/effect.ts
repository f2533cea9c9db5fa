/**
 * The shape every effect shares: a named list of small steps over one context. Effects never build
 * envelopes, URLs or task rows; they take decoded pixels and validated params and return encoded images
 * and plain data. The same effect serves sync and async routes.
 */
import type { EncodedImage, RasterImage } from '../image/raster.ts';
import type { ModelRegistry } from '../vision/models/registry.ts';
import { jobFacts, type JobFacts } from './facts.ts';
import type { StepTime } from './timing.ts';

/**
 * What an effect hands back. Image names the response builder understands:
 * `result` (the main image), `class:<garment>` (apparel per-class images).
 */
export interface EffectOutput { images: Record<string, EncodedImage>; data?: Record<string, unknown> }

/**
 * One job's context. `P` is the endpoint's validated params; `S` what this effect's steps derive for later
 * steps (its own record, typed per effect); `facts` what any step may ask of the image, computed once.
 */
export interface Ctx<P = Record<string, unknown>, S extends object = Record<string, unknown>> {
  /** The main `image` field, decoded. */
  image: RasterImage;
  /** Other image fields (e.g. `image_template`), decoded. */
  images: Record<string, RasterImage>;
  params: P;
  state: Partial<S>;
  facts: JobFacts;
  output: EffectOutput;
}

export interface Kit {
  models: ModelRegistry;
  signal: AbortSignal;
  /** Told each step's time as it ends (bench scripts); runEffect times nothing without it or ATELIER_STEP_TIMES. */
  onStep?: (t: StepTime) => void;
}

export type Step<P = Record<string, unknown>, S extends object = Record<string, unknown>> = (c: Ctx<P, S>, kit: Kit) => Promise<void> | void;

export interface Effect<P = Record<string, unknown>, S extends object = Record<string, unknown>> {
  slug: string;
  /** Model ids from the catalog, loaded before the first run in each worker. */
  models: readonly string[];
  steps: readonly Step<P, S>[];
}

/** A step made by a factory, named for per-step timing (a returned arrow function has no name). */
export const named = <P, S extends object>(name: string, step: Step<P, S>): Step<P, S> => Object.defineProperty(step, 'name', { value: name });

export const defineEffect = <P = Record<string, unknown>, S extends object = Record<string, unknown>>(e: Effect<P, S>): Effect<P, S> => e;

/** A context for running steps outside the pipeline (scripts that measure one step). */
export function stepContext<P, S extends object = Record<string, unknown>>(image: RasterImage, params: P, models: ModelRegistry): Ctx<P, S> {
  return { image, images: {}, params, state: {}, facts: jobFacts(image, models), output: { images: {} } };
}
