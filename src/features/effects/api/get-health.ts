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
  return { state: loading ? 'loading' : ok && res.ok ? 'ready' : 'unknown', effects, ...(storageFull ? { storageFull } : {}) };
}

export const useHealth = () =>
  useQuery({ queryKey: ['healthz'], queryFn: getHealth, refetchInterval: (q) => (q.state.data?.state === 'ready' ? 30_000 : 5_000), retry: false });

export const isAvailable = (health: Health | undefined, slug: string): boolean => health?.effects?.[slug] !== 'not_available';
