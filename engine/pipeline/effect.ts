/**
 * The shape every effect shares: a named list of small steps over one context. Effects never build
 * envelopes, URLs or task rows; they take decoded pixels and validated params and return encoded images
 * and plain data. The same effect serves sync and async routes.
 *
 * A step returns what it derives for later steps (or nothing), and its type says what it reads: the list
 * is built with `steps<P>().step(a).step(b)...`, each step checked against what the steps before it
 * returned, so state a step reads was set by an earlier one.
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
 * One job's context. `P` is the endpoint's validated params; `S` what earlier steps returned, which a step
 * reads and never writes (it returns what it adds); `facts` what any step may ask of the image, computed once.
 */
export interface Ctx<P = Record<string, unknown>, S extends object = object> {
  /** The main `image` field, decoded. */
  image: RasterImage;
  /** Other image fields (e.g. `image_template`), decoded. */
  images: Record<string, RasterImage>;
  params: P;
  state: Readonly<S>;
  facts: JobFacts;
  output: EffectOutput;
}

export interface Kit {
  models: ModelRegistry;
  signal: AbortSignal;
  /** Told each step's time as it ends (bench scripts); runEffect times nothing without it or ATELIER_STEP_TIMES. */
  onStep?: (t: StepTime) => void;
}

/** A step: reads the state `In` (what earlier steps returned) and returns `Out`, what it adds for later ones. */
export type Step<P = Record<string, unknown>, In extends object = object, Out extends object | void = void> =
  (c: Ctx<P, In>, kit: Kit) => Out | Promise<Out>;

/** A step as the runner holds it: what it reads was checked when its list was built (Steps.step). */
export type RunStep<P = Record<string, unknown>> = (c: Ctx<P, object>, kit: Kit) => object | void | Promise<object | void>;

type Added<Out> = Out extends object ? Out : object;

/** An effect's steps in order, typed with the state the steps so far return. */
export class Steps<P, S extends object> {
  constructor(readonly list: readonly RunStep<P>[]) {}

  /** `next` after these: it may read only what they return. */
  step<Out extends object | void>(next: Step<P, S, Out>): Steps<P, S & Added<Out>> {
    // The list forgets each step's state type; this call is where it was checked.
    return new Steps<P, S & Added<Out>>([...this.list, next as unknown as RunStep<P>]);
  }
}

/** The start of an effect's step list (no state yet). */
export const steps = <P>(): Steps<P, object> => new Steps<P, object>([]);

export interface Effect<P = Record<string, unknown>> {
  slug: string;
  /** Model ids from the catalog, loaded before the first run in each worker. */
  models: readonly string[];
  steps: readonly RunStep<P>[];
}

/** A step made by a factory, named for per-step timing (a returned arrow function has no name). */
export const named = <F extends (...a: never[]) => unknown>(name: string, step: F): F => Object.defineProperty(step, 'name', { value: name });

/** An effect from its steps: a typed list (steps()), or steps that share no state. */
export const defineEffect = <P = Record<string, unknown>>(e: { slug: string; models: readonly string[]; steps: Steps<P, object> | readonly Step<P>[] }): Effect<P> =>
  ({ slug: e.slug, models: e.models, steps: e.steps instanceof Steps ? e.steps.list : (e.steps as readonly RunStep<P>[]) });

/** Runs one step over `c` and adds what it returns to the state. */
export async function runStep<P>(step: RunStep<P>, c: Ctx<P, object>, kit: Kit): Promise<void> {
  const added = await step(c, kit);
  if (added) Object.assign(c.state, added);
}

/** `c` with `added` in its state, typed: for scripts that run an effect's steps one by one. */
export const withState = <P, S extends object, A extends object | void>(c: Ctx<P, S>, added: A): Ctx<P, S & Added<A>> =>
  ({ ...c, state: { ...c.state, ...added } as S & Added<A> });

/** A context for running steps outside the pipeline (scripts that measure one step): no state yet. */
export function stepContext<P>(image: RasterImage, params: P, models: ModelRegistry): Ctx<P, object> {
  return { image, images: {}, params, state: {}, facts: jobFacts(image, models), output: { images: {} } };
}
