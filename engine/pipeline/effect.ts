/**
 * The shape every effect shares: a named list of small steps over one context. Effects never build
 * envelopes, URLs or task rows; they take decoded pixels and validated params and return encoded images
 * and plain data. The same effect serves sync and async routes.
 */
import type { ErrorCode } from '../../contract/errors.ts';
import type { EncodedImage, RasterImage } from '../image/raster.ts';
import type { ModelRegistry } from '../vision/models/registry.ts';
import { jobFacts, type JobFacts } from './facts.ts';

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

export interface Kit { models: ModelRegistry; signal: AbortSignal }

export type Step<P = Record<string, unknown>, S extends object = Record<string, unknown>> = (c: Ctx<P, S>, kit: Kit) => Promise<void> | void;

export interface Effect<P = Record<string, unknown>, S extends object = Record<string, unknown>> {
  slug: string;
  /** Model ids from the catalog, loaded before the first run in each worker. */
  models: readonly string[];
  steps: readonly Step<P, S>[];
}

export const defineEffect = <P = Record<string, unknown>, S extends object = Record<string, unknown>>(e: Effect<P, S>): Effect<P, S> => e;

/** A context for running steps outside the pipeline (scripts that measure one step). */
export function stepContext<P, S extends object = Record<string, unknown>>(image: RasterImage, params: P, models: ModelRegistry): Ctx<P, S> {
  return { image, images: {}, params, state: {}, facts: jobFacts(image, models), output: { images: {} } };
}

/** A failure with a contract error code; the message is shown to the client, so nothing internal goes in it. */
export class EffectError extends Error {
  constructor(readonly code: ErrorCode, message: string) { super(message); }
}
