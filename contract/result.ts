/**
 * The output side of an endpoint as data: a template of the answer's members (besides the envelope) whose
 * leaves say where each value comes from. The engine fills it from an effect's output, the OpenAPI document
 * describes it, and the studio walks it beside an answer to find the images in it.
 *
 * Effects name their images: `result` for the main one, and families by prefix (`class:tops`, `map:red_area`).
 */

/** The JSON type of a value leaf, for the OpenAPI document. */
export type ValueType = 'integer' | 'number' | 'string' | 'object' | 'array';

export type ResultLeaf =
  /** One output image, stored and answered as an absolute URL, or inlined as base64. */
  | { from: 'image'; image: string; as: 'url' | 'base64'; label: string }
  /** Every output image named `prefix` + suffix, as an object keyed by suffix (absent ones are left out). */
  | { from: 'images'; prefix: string; as: 'url' | 'base64' }
  /** A value the effect computed (`output.data[key]`). */
  | { from: 'value'; key: string; type: ValueType; description: string; optional?: boolean }
  /** The id of the task an async submit queued. */
  | { from: 'task_id' }
  /** The stored result URLs of a completed task, in the order of its endpoint's `taskImages`. */
  | { from: 'task_result_urls' };

export type ResultShape = ResultLeaf | { readonly [member: string]: ResultShape } | readonly ResultShape[];

export interface ResultSpec {
  /** The answer's members besides the envelope. */
  shape: ResultShape;
  /** Async endpoints: the images a finished task keeps, in order, and what the task query answers for them. */
  taskImages?: readonly string[];
}

export const isLeaf = (s: ResultShape): s is ResultLeaf => !Array.isArray(s) && typeof (s as { from?: unknown }).from === 'string';

// Builders, so endpoint files read like the answer they describe.
export const imageUrl = (image = 'result', label = 'Result'): ResultLeaf => ({ from: 'image', image, as: 'url', label });
export const imageBase64 = (image = 'result', label = 'Result'): ResultLeaf => ({ from: 'image', image, as: 'base64', label });
export const imageUrls = (prefix: string): ResultLeaf => ({ from: 'images', prefix, as: 'url' });
export const imagesBase64 = (prefix: string): ResultLeaf => ({ from: 'images', prefix, as: 'base64' });
export const value = (key: string, type: ValueType, description: string, opts: { optional?: boolean } = {}): ResultLeaf =>
  ({ from: 'value', key, type, description, ...opts });

/** An async endpoint: the submit answers `task_id`; the task query answers `data.result_urls` once done. */
export const taskResult = (images: readonly string[] = ['result']): ResultSpec => ({ shape: { task_id: { from: 'task_id' } }, taskImages: images });

/** The task query's own answer. */
export const taskQueryResult: ResultSpec = {
  shape: {
    task_status: value('task_status', 'integer', '0 queued, 1 processing, 2 completed (successfully or not)'),
    data: { result_urls: { from: 'task_result_urls' } },
  },
};

/** Every image leaf of a shape, in the order they appear. */
export function imageLeaves(shape: ResultShape): Extract<ResultLeaf, { from: 'image' | 'images' }>[] {
  if (isLeaf(shape)) return shape.from === 'image' || shape.from === 'images' ? [shape] : [];
  return (Array.isArray(shape) ? shape : Object.values(shape)).flatMap((s: ResultShape) => imageLeaves(s));
}

/**
 * Builds an answer from a shape: each leaf's value comes from `resolve`. Members that resolve to undefined
 * are left out, and so is an object left with no members (a task not done yet has no `data`).
 */
export async function fillShape(shape: ResultShape, resolve: (leaf: ResultLeaf) => unknown): Promise<unknown> {
  if (isLeaf(shape)) return resolve(shape);
  if (Array.isArray(shape)) return Promise.all(shape.map((s: ResultShape) => fillShape(s, resolve)));
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(shape as Record<string, ResultShape>)) {
    const v = await fillShape(s, resolve);
    if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

/** Whether a shape answers the effect's value `key` somewhere (the studio draws `retain_location`, for one). */
export function shapeHasValue(shape: ResultShape, key: string): boolean {
  if (isLeaf(shape)) return shape.from === 'value' && shape.key === key;
  return (Array.isArray(shape) ? shape : Object.values(shape)).some((s: ResultShape) => shapeHasValue(s, key));
}
