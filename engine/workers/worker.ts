/**
 * A worker thread: decodes inputs, runs effects, encodes nothing itself (effects return encoded images).
 * Models load once per worker through its own registry, when an effect that needs them first runs here:
 * loading every effect's models at start made each worker hold all of them whether used or not, which
 * does not fit a laptop once there are a dozen effects. The registry's load events go to the pool, so
 * /healthz says which models are loaded, loading or failed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { decodeImage } from '../image/decode.ts';
import { runEffect } from '../pipeline/run.ts';
import { ModelLoadError, ModelRegistry } from '../vision/models/registry.ts';
import type { RasterImage } from '../image/raster.ts';
import { CodedError } from '../../contract/errors.ts';
import type { Effect, EffectOutput } from '../pipeline/effect.ts';
import { HostLink } from './host-link.ts';
import type { JobRequest, PoolMessage, WorkerData, WorkerMessage } from './protocol.ts';

const init = workerData as WorkerData;
const port = parentPort!;
const send = (m: WorkerMessage) => port.postMessage(m);

// One libvips thread per worker: the pool already spreads work over the cores.
sharp.concurrency(1);
const host = new HostLink(init.hostPort);
const models = new ModelRegistry({ threads: init.threads, host }, (e) => send({ type: 'model', ...e }));
const effects = new Map<string, Promise<Effect>>();

const loadEffect = (slug: string): Promise<Effect> => {
  let p = effects.get(slug);
  if (!p) {
    const href = init.effects[slug];
    if (!href) return Promise.reject(new CodedError('ERROR_AI_NOT_AVAILABLE', `${slug} is not provided by this engine`));
    p = import(href).then((m) => m.default as Effect);
    effects.set(slug, p);
  }
  return p;
};

/**
 * The effect's models, loaded before its first run here, all at once: ONNX networks open in the model host
 * while tfjs models load in this thread. A load that fails makes the effect unavailable, plainly; with
 * several failing, the first in the effect's list is the one named.
 */
async function loadModels(effect: Effect) {
  const loads = await Promise.allSettled(effect.models.map((id) => models.get(id)));
  for (const [i, load] of loads.entries()) {
    if (load.status === 'fulfilled') continue;
    const err: unknown = load.reason;
    if (!(err instanceof ModelLoadError)) throw err;
    console.error(`[worker] ${effect.slug}: ${err.message}`);
    // The reason (paths, runtime messages) goes to the log and /healthz, not to the client.
    throw new CodedError('ERROR_AI_NOT_AVAILABLE', `${effect.slug} is not available right now: its model ${effect.models[i]} could not be loaded (see /healthz)`);
  }
}

async function decodeAll(images: JobRequest['images']): Promise<Record<string, RasterImage>> {
  const decoded: Record<string, RasterImage> = {};
  for (const [name, img] of Object.entries(images)) {
    try {
      decoded[name] = await decodeImage(img.bytes, img.format, img.maxPixels);
    } catch {
      throw new CodedError('FILE_DECODING_FAILURE', `${name}: the bytes look like ${img.format.toUpperCase()} but do not decode`);
    }
  }
  return decoded;
}

/** The running job's controller, so a cancel from the pool can stop it. */
const running = new Map<number, AbortController>();

/** Decodes the job's images and runs its effect. Steps look at the signal between them. */
async function work(job: JobRequest, signal: AbortSignal): Promise<EffectOutput> {
  const effect = await loadEffect(job.slug);
  // Decoding (sharp's threads) goes on while the models load.
  const decoding = decodeAll(job.images);
  decoding.catch(() => {});
  // The steps start as soon as the images are decoded, each waiting only for the models it asks for (the
  // registry's loads are shared): a step whose model is open in the model host (ISNet, preloaded) runs while
  // the tfjs models load here. A failed load still answers as the effect being unavailable.
  // When a load fails, the steps already under way stop at their next boundary.
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  const loading = loadModels(effect);
  loading.catch((err: unknown) => stop.abort(err));
  const running = decoding.then(({ image, ...others }) => runEffect(effect, { image, images: others, params: job.params }, { models, signal: both }));
  running.catch(() => {});
  await loading;
  return running;
}

async function runJob(job: JobRequest) {
  const controller = new AbortController();
  running.set(job.id, controller);
  const timer = setTimeout(() => controller.abort(new CodedError('AI_SERVICE_TIMEOUT', `${job.slug} was stopped: it ran past its time budget`)), job.timeoutMs);
  // A stopped job (its client gone, or its budget spent) is answered at once, not when its step ends: a
  // step awaiting a model run on the host, or a model load, may take many seconds more. What it still
  // does is dropped: it ends at its next step boundary, and the worker takes the next job meanwhile.
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  const job$ = work(job, controller.signal);
  job$.catch(() => {}); // a dropped job's later failure is no one's concern
  stopped.catch(() => {});
  try {
    const output = await Promise.race([job$, stopped]);
    // Copied, not transferred: effect buffers may be views into pooled memory.
    send({ type: 'done', id: job.id, output });
  } catch (err) {
    if (err instanceof CodedError) send({ type: 'failed', id: job.id, code: err.code, message: err.message });
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
  if (m.type === 'cancel') running.get(m.id)?.abort(new CodedError('PROCESSING_FAILURE', 'the job was cancelled: its client has gone'));
  else if (m.type === 'host') host.connect(m.port);
  else void runJob(m);
});
send({ type: 'ready' });
