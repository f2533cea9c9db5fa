/**
 * The model host: one thread that holds the ONNX sessions every worker shares. Workers ask it to open a
 * network by catalog id and to run it; runs go one at a time, each with every core, so the session's
 * arena is sized for one run and the engine holds one copy of each network however many workers it has.
 * Opens the networks in init.preload at start and others when asked, from the optimised copies it keeps
 * in init.optimizedDir where the catalog allows it, and closes what has not run for a while
 * (ATELIER_MODEL_IDLE_MS).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { catalog } from '../vision/models/catalog.ts';
import { openLocalOnnx, type OnnxTensor } from '../vision/models/onnx.ts';
import { IdleNets } from './idle-nets.ts';
import { openOptimized } from './optimized-models.ts';
import type { HostControl, HostInit, HostModelEvent, HostReply, HostRequest, HostStopped } from './host-protocol.ts';

const init = workerData as HostInit;

function openNet(id: string) {
  // `id@variant` names one of a family a catalog entry converts on demand (BiSeNet at each input side).
  const [base, variant] = id.split('@');
  const entry = catalog[base];
  const source = variant === undefined ? entry?.onnx : entry?.onnxVariant && (() => entry.onnxVariant!(variant));
  if (!source) return Promise.reject(new Error(`${id} is not an ONNX network in the catalog`));
  const identify = variant === undefined ? entry.onnxIdentity : entry.onnxVariantIdentity && (() => entry.onnxVariantIdentity!(variant));
  if (init.optimizedDir && identify) {
    const dir = init.optimizedDir;
    return identify().then((identity) => openOptimized(dir, { id, identity, origin: `catalog:${id}`, bytes: source }, init.threads));
  }
  return source().then((bytes) => openLocalOnnx(bytes, init.threads));
}
// A failed open is forgotten, so a later request tries again (as the workers' registries do); a network
// idle for init.idleMs is closed, its arena given back, and opened again when next asked for.
const nets = new IdleNets(openNet, init.idleMs);
if (init.idleMs > 0) {
  // Between runs (in their queue), so a network is never closed under one.
  setInterval(() => void serial(() => nets.closeIdle()).catch(() => {}), Math.min(60_000, Math.max(1000, init.idleMs / 4))).unref();
}

// Opened in the background: a request that needs one meanwhile waits on the same open. One that fails is
// forgotten (the request asking for it reports why); one that no request runs is closed when idle, as any.
for (const id of init.preload) {
  const report = (m: HostModelEvent) => parentPort!.postMessage(m);
  report({ type: 'model', id, state: 'loading' });
  nets.open(id).then(
    () => report({ type: 'model', id, state: 'loaded' }),
    (err: unknown) => report({ type: 'model', id, state: 'failed', message: err instanceof Error ? err.message : String(err) }),
  );
}

/** Runs queue behind each other: concurrent runs would each grow the arena and share the same cores. */
let queue: Promise<unknown> = Promise.resolve();
/** Set at the pool's close: runs not started yet fail instead of starting. */
let stopping = false;
function serial<T>(fn: () => Promise<T>): Promise<T> {
  const guarded = () => (stopping ? Promise.reject(new Error('the model host is stopping')) : fn());
  const next = queue.then(guarded, guarded);
  queue = next.catch(() => {});
  return next;
}

function serve(port: MessagePort) {
  port.on('message', (m: HostRequest) => {
    const work = m.type === 'open'
      ? nets.open(m.id).then(() => undefined)
      : serial(() => nets.use(m.id, (net) => net.run(m.feeds, m.outputs)));
    work.then(
      (outputs) => {
        const reply: HostReply = { type: 'ok', req: m.req, outputs };
        port.postMessage(reply, outputs ? transferables(outputs) : []);
      },
      (err: unknown) => {
        const reply: HostReply = { type: 'failed', req: m.req, message: err instanceof Error ? err.message : String(err) };
        port.postMessage(reply);
      },
    );
  });
}

const transferables = (tensors: Record<string, OnnxTensor>) => Object.values(tensors).map((t) => t.data.buffer as ArrayBuffer);

// The thread must not be terminated while onnxruntime runs a network: the run's completion then calls into
// a torn-down thread, and the whole process aborts ("terminate called after throwing an instance of
// 'Napi::Error'"). So the pool asks it to stop, and terminates it once the run under way has finished.
parentPort!.on('message', (m: HostControl) => {
  if (m.type === 'connect') return serve(m.port);
  stopping = true;
  void queue.then(() => parentPort!.postMessage({ type: 'stopped' } satisfies HostStopped));
});
