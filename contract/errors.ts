/** Error codes (docs/interface.md#error-codes): one table, code → HTTP status and short summary. */
export const errorCodes = {
  MISSING_PARAMETERS: { status: 400, summary: 'Missing parameters' },
  ERROR_INVALID_PARAMETER: { status: 400, summary: 'Invalid parameter' },
  ERROR_INVALID_API_KEY: { status: 401, summary: 'Invalid API key' },
  ERROR_AI_NOT_EXISTS: { status: 404, summary: 'Endpoint does not exist' },
  ERROR_TASK_NOT_EXISTS: { status: 404, summary: 'Task does not exist' },
  ERROR_METHOD_NOT_ALLOWED: { status: 405, summary: 'Method not allowed' },
  FILE_SIZE_EXCEEDS_LIMIT: { status: 413, summary: 'File size exceeds limit' },
  FILE_RESOLUTION_EXCEEDS_LIMITS: { status: 413, summary: 'Image resolution outside limits' },
  UNSUPPORTED_FILE_TYPES: { status: 415, summary: 'Unsupported file type' },
  FILE_DECODING_FAILURE: { status: 422, summary: 'Image could not be decoded' },
  ERROR_NO_FACE_IN_FILE: { status: 422, summary: 'No face in image' },
  ERROR_FACE_SIZE_RATIO_NOT_MET: { status: 422, summary: 'Face too small' },
  ERROR_BLURRY_FACE: { status: 422, summary: 'Face too blurry' },
  EXCEEDING_LIMITS: { status: 429, summary: 'Too many requests' },
  PROCESSING_FAILURE: { status: 500, summary: 'Processing failed' },
  ERROR_AI_NOT_AVAILABLE: { status: 501, summary: 'Effect not available' },
  ERROR_INSUFFICIENT_RESOURCES: { status: 503, summary: 'Service unavailable' },
  AI_SERVICE_TIMEOUT: { status: 504, summary: 'Processing timed out' },
} as const;

export type ErrorCode = keyof typeof errorCodes;

export const isErrorCode = (s: unknown): s is ErrorCode => typeof s === 'string' && s in errorCodes;

/**
 * A failure the client is told of: a code from the table above and a message shown as it is, so nothing
 * internal goes in it. One class for validation, the HTTP layer and effects alike; the engine's envelope
 * answers it. `retryAfterS` becomes Retry-After; `httpStatus` overrides the code's own status where HTTP has
 * a closer one (408 for an upload cut off).
 */
export class CodedError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly retryAfterS?: number, private readonly httpStatus?: number) { super(message); }
  get status(): number { return this.httpStatus ?? errorCodes[this.code].status; }
}
