import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, studioCodes } from '../../../lib/api-client.ts';
import { AWAY_POLL_MS, getTask, taskFailure, taskPath, taskRefetchInterval } from './get-task.ts';

const envelope = { request_id: 'req-1', log_id: 'log-1', error_detail: { code: '', code_message: '', message: '' } };
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const state = (s: Record<string, unknown>) => ({ state: { status: 'success', dataUpdateCount: 1, ...s } }) as unknown as Parameters<typeof taskRefetchInterval>[0];

afterEach(() => vi.unstubAllGlobals());

describe('taskRefetchInterval', () => {
  it('polls while queued or processing and stops at task_status 2 or on an error', () => {
    expect(taskRefetchInterval(state({ data: { task_status: 0 } }))).toBe(1000);
    expect(taskRefetchInterval(state({ data: { task_status: 1 }, dataUpdateCount: 40 }))).toBe(3000);
    expect(taskRefetchInterval(state({ data: undefined, status: 'pending' }))).toBe(1000);
    expect(taskRefetchInterval(state({ data: { task_status: 2 } }))).toBe(false);
    expect(taskRefetchInterval(state({ status: 'error' }))).toBe(false);
  });

  it('goes on polling while the engine is away (unreachable, or a gateway answering 502/503/504 while it restarts)', () => {
    const away = new ApiError(0, { code: studioCodes.network, code_message: 'Engine unreachable', message: '' });
    const gateway = new ApiError(502, { code: studioCodes.badResponse, code_message: 'x', message: '' });
    const gone = new ApiError(404, { code: 'ERROR_TASK_NOT_EXISTS', code_message: 'x', message: '' });
    expect(taskRefetchInterval(state({ status: 'error', error: away }))).toBe(AWAY_POLL_MS);
    expect(taskRefetchInterval(state({ status: 'error', error: gateway }))).toBe(AWAY_POLL_MS);
    expect(taskRefetchInterval(state({ status: 'error', error: gone }))).toBe(false);
  });
});

describe('getTask', () => {
  it('asks the task query with the task id', async () => {
    const fetch = vi.fn().mockResolvedValue(answer(200, { ...envelope, task_status: 1 }));
    vi.stubGlobal('fetch', fetch);
    expect(await getTask('a b')).toMatchObject({ task_status: 1, httpStatus: 200 });
    expect(fetch).toHaveBeenCalledWith(taskPath('a b'), undefined);
    expect(taskPath('a b')).toBe('/api/common/query-async-task-result?task_id=a%20b');
  });

  it('returns a failed task as an answer with its error', async () => {
    const failed = { ...envelope, task_status: 2, error_detail: { code: 'ERROR_NO_FACE_IN_FILE', code_message: 'No face in image', message: 'no face found' } };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(422, failed)));
    const t = await getTask('t1');
    expect(taskFailure(t)).toEqual({ code: 'ERROR_NO_FACE_IN_FILE', code_message: 'No face in image', message: 'no face found', status: 422, request_id: 'req-1' });
  });

  it('throws the envelope of an unknown task', async () => {
    const gone = { ...envelope, error_detail: { code: 'ERROR_TASK_NOT_EXISTS', code_message: 'Task does not exist', message: 'task_id t9 is unknown or expired' } };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(404, gone)));
    const e = await getTask('t9').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).toShown()).toMatchObject({ status: 404, code: 'ERROR_TASK_NOT_EXISTS', request_id: 'req-1' });
  });
});
