/**
 * Same-origin requests to the engine (the dev/preview proxy adds the key). Every failure becomes an ApiError
 * carrying the envelope's error_detail, so the UI can show code, message and request_id the same way.
 */
import type { ErrorDetail } from '../../contract/envelope.ts';

export interface ShownError extends ErrorDetail {
  status?: number;
  request_id?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    readonly requestId?: string,
    readonly body?: unknown,
  ) {
    super(detail.message || detail.code_message || `HTTP ${status}`);
    this.name = 'ApiError';
  }

  get code(): string {
    return this.detail.code;
  }

  toShown(): ShownError {
    return { ...this.detail, status: this.status || undefined, request_id: this.requestId };
  }
}

/** Codes the studio itself produces when no envelope came back. */
export const studioCodes = {
  network: 'STUDIO_ENGINE_UNREACHABLE',
  badResponse: 'STUDIO_BAD_RESPONSE',
  result: 'STUDIO_RESULT_UNREADABLE',
  cancelled: 'STUDIO_CANCELLED',
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function errorDetailOf(body: unknown): ErrorDetail | undefined {
  const d = isRecord(body) ? body.error_detail : undefined;
  if (!isRecord(d) || typeof d.code !== 'string' || d.code === '') return undefined;
  return { code: d.code, code_message: String(d.code_message ?? ''), message: String(d.message ?? '') };
}

export function requestIdOf(body: unknown): string | undefined {
  return isRecord(body) && typeof body.request_id === 'string' ? body.request_id : undefined;
}

export interface RawAnswer {
  status: number;
  body: unknown;
}

/** Fetches and parses JSON whatever the status; throws ApiError only when no JSON came back. */
export async function requestJson(path: string, init?: RequestInit): Promise<RawAnswer> {
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, {
      code: studioCodes.network,
      code_message: 'Engine unreachable',
      message: 'The studio could not reach the engine. Check that it is running and that the proxy points to it.',
    });
  }
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    throw new ApiError(res.status, {
      code: studioCodes.badResponse,
      code_message: res.ok ? 'Unreadable answer' : 'The engine did not explain the failure',
      message: res.ok
        ? 'The engine answered with something that is not JSON.'
        : `The request failed (HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}) without saying why; the engine may be down or restarting. Try again in a moment.`,
    });
  }
}

/** Throws the envelope's error unless the answer is a 200 with an empty error_detail. */
export function ensureOk<T>({ status, body }: RawAnswer): T {
  const detail = errorDetailOf(body);
  if (status !== 200 || detail) {
    throw new ApiError(
      status,
      detail ?? { code: studioCodes.badResponse, code_message: `HTTP ${status}`, message: 'The engine answered with an error but no error_detail.' },
      requestIdOf(body),
      body,
    );
  }
  return body as T;
}

export const apiRequest = async <T>(path: string, init?: RequestInit): Promise<T> => ensureOk<T>(await requestJson(path, init));

export function toShownError(e: unknown): ShownError {
  if (e instanceof ApiError) return e.toShown();
  const message = e instanceof Error ? e.message : String(e);
  return { code: studioCodes.result, code_message: 'Something went wrong', message };
}
