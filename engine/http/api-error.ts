/** Errors that become envelopes: one class, codes and statuses from contract/errors.ts. */
import { errorCodes, type ErrorCode } from '../../contract/errors.ts';

export class ApiError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly retryAfterS?: number) { super(message); }
  get status(): number { return errorCodes[this.code].status; }
}

export const statusOf = (code: ErrorCode): number => errorCodes[code].status;
