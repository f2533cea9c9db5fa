/** Errors that become envelopes: one class, codes and statuses from contract/errors.ts. */
import { errorCodes, type ErrorCode } from '../../contract/errors.ts';

export class ApiError extends Error {
  /** `httpStatus` overrides the code's own status where HTTP has a closer one (408 for an upload cut off). */
  constructor(readonly code: ErrorCode, message: string, readonly retryAfterS?: number, private readonly httpStatus?: number) { super(message); }
  get status(): number { return this.httpStatus ?? errorCodes[this.code].status; }
}

export const statusOf = (code: ErrorCode): number => errorCodes[code].status;
