/**
 * A worker thread: decodes inputs, runs effects, encodes nothing itself (effects return encoded images).
 * Models load once per worker through its own registry; every effect's models are loaded at start so
 * the first request does not pay for them and /healthz can say when the engine is warm.
 */
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { decodeImage } from '../image/decode.ts';
import { runEffect } from '../pipeline/run.ts';
import { ModelRegistry } from '../vision/models/registry.ts';
import type { RasterImage } from '../image/raster.ts';
import { EffectError, type Effect } from '../pipeline/effect.ts';
import type { JobRequest, PoolMessage, WorkerInit, WorkerMessage } from './protocol.ts';

const init = workerData as WorkerInit;
const port = parentPort!;
const send = (m: WorkerMessage) => port.postMessage(m);

// One libvips thread per worker: the pool already spreads work over the cores.
sharp.concurrency(1);
const models = new ModelRegistry({ threads: init.threads });
const effects = new Map<string, Promise<Effect>>();

const loadEffect = (slug: string): Promise<Effect> => {
  let p = effects.get(slug);
  if (!p) {
    const href = init.effects[slug];
    if (!href) return Promise.reject(new EffectError('ERROR_AI_NOT_AVAILABLE', `${slug} is not provided by this engine`));
    p = import(href).then((m) => m.default as Effect);
    effects.set(slug, p);
  }
  return p;
};

async function warm() {
  for (const slug of Object.keys(init.effects)) {
    const effect = await loadEffect(slug);
    for (const id of effect.models) await models.get(id);
  }
  send({ type: 'ready', models: models.loadedIds() });
}

/** The running job's controller, so a cancel from the pool can stop it. */
const running = new Map<number, AbortController>();

async function runJob(job: JobRequest) {
  const controller = new AbortController();
  running.set(job.id, controller);
  const timer = setTimeout(() => controller.abort(), job.timeoutMs);
  try {
    const effect = await loadEffect(job.slug);
    const decoded: Record<string, RasterImage> = {};
    for (const [name, img] of Object.entries(job.images)) {
      try {
        decoded[name] = await decodeImage(img.bytes, img.format, img.maxPixels);
      } catch {
        throw new EffectError('FILE_DECODING_FAILURE', `${name}: the bytes look like ${img.format.toUpperCase()} but do not decode`);
      }
    }
    const { image, ...others } = decoded;
    const output = await runEffect(effect, { image, images: others, params: job.params }, { models, signal: controller.signal });
    // Copied, not transferred: effect buffers may be views into pooled memory.
    send({ type: 'done', id: job.id, output });
  } catch (err) {
    if (err instanceof EffectError) send({ type: 'failed', id: job.id, code: err.code, message: err.message });
    else {
      console.error(`[worker] ${job.slug} failed:`, err);
      send({ type: 'failed', id: job.id, code: 'PROCESSING_FAILURE', message: `${job.slug} failed while processing the image` });
    }
  } finally {
    clearTimeout(timer);
    running.delete(job.id);
  }
}

// Jobs run one at a time per worker; the pool never sends a second before the first is answered.
port.on('message', (m: PoolMessage) => {
  if (m.type === 'cancel') running.get(m.id)?.abort();
  else void runJob(m);
});
warm().catch((err) => {
  console.error('[worker] model warm-up failed:', err);
  send({ type: 'ready', models: models.loadedIds() });
});
