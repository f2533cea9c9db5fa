/**
 * GET /healthz: whether the engine answers and which effects it provides. A server without /healthz, or one
 * that lists no effects, is taken to provide them all (the same interface, served by someone else).
 */
import { useQuery } from '@tanstack/react-query';

export type EngineState = 'ready' | 'loading' | 'offline' | 'unknown';

export interface Health {
  state: EngineState;
  effects?: Record<string, string>;
  /** `status: storage_full`: the engine's disk is full, so background tasks wait and new ones are refused. */
  storageFull?: boolean;
  /** `image_limits`: the self-hoster raised the interface's image limits to these (each only ever raises). */
  imageLimits?: RaisedImageLimits;
}

export interface RaisedImageLimits { maxSide?: number; maxBytes?: number }

/** The raised limits the last /healthz gave, for code outside React (a batch fits its photos to them). */
let lastImageLimits: RaisedImageLimits | undefined;
export const raisedImageLimits = (): RaisedImageLimits | undefined => lastImageLimits;

const positive = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined);

function readImageLimits(v: unknown): RaisedImageLimits | undefined {
  if (!isRecord(v)) return undefined;
  const out = { maxSide: positive(v.max_side), maxBytes: positive(v.max_bytes) };
  return out.maxSide || out.maxBytes ? out : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function getHealth(): Promise<Health> {
  let res: Response;
  try {
    res = await fetch('/healthz', { headers: { accept: 'application/json' } });
  } catch {
    return { state: 'offline' };
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (!isRecord(body)) return { state: res.status >= 500 ? 'offline' : 'unknown' };
  const effects = isRecord(body.effects)
    ? Object.fromEntries(Object.entries(body.effects).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  // Workers still starting (models load later, per effect, and do not hold the studio back).
  const loading = body.ready === false;
  // A full disk leaves the effects that answer at once working: the engine is up, with a warning.
  const storageFull = body.status === 'storage_full';
  const ok = body.status === undefined || body.status === 'ok' || storageFull;
  const imageLimits = readImageLimits(body.image_limits);
  lastImageLimits = imageLimits;
  return { state: loading ? 'loading' : ok && res.ok ? 'ready' : 'unknown', effects, ...(storageFull ? { storageFull } : {}), ...(imageLimits ? { imageLimits } : {}) };
}

export const useHealth = () =>
  useQuery({ queryKey: ['healthz'], queryFn: getHealth, refetchInterval: (q) => (q.state.data?.state === 'ready' ? 30_000 : 5_000), retry: false });

/** The last /healthz answer the studio has (the app's useHealth asks), without asking again. */
export const useKnownHealth = () => useQuery({ queryKey: ['healthz'], queryFn: getHealth, enabled: false });

export const isAvailable = (health: Health | undefined, slug: string): boolean => health?.effects?.[slug] !== 'not_available';
