/**
 * Reads a multipart request against an endpoint's contract: sizes are enforced while streaming (busboy
 * stops at the limit), the format is decided from the bytes, and width and height come from the header
 * before anything is decoded. Text fields are validated by the contract's own rules.
 */
import type { FastifyRequest } from 'fastify';
import type { Endpoint } from '../../contract/endpoint.ts';
import type { ImageField } from '../../contract/fields.ts';
import { describeLimits, formatLabel, type ImageFormat } from '../../contract/limits.ts';
import { validateFields } from '../../contract/validate.ts';
import { readHeader, sniffFormat } from '../image/sniff.ts';
import { CodedError } from '../../contract/errors.ts';
import { markCutOff } from '../plugins/envelope.ts';
import type { JobImage } from '../workers/protocol.ts';

export interface Upload {
  params: Record<string, unknown>;
  images: Record<string, JobImage>;
}

const MB = 1024 * 1024;
const fmtMb = (n: number) => `${+(n / MB).toFixed(2)} MB`;
/** The most a text field may carry; a longer value is refused, not cut. */
const FIELD_MAX_BYTES = 64 * 1024;

/**
 * Cuts an upload off with 408 when its socket receives no byte for `idleMs` (checked a few times a second
 * on the socket's own count, so no listener joins the body's stream). `wait` and `each` race the body's
 * promises against the stall; a promise left behind by a cut-off is caught, never left unhandled.
 */
function watchStall(req: FastifyRequest, idleMs: number) {
  const socket = req.raw.socket;
  let seen = socket.bytesRead;
  let quietSince = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      if (socket.bytesRead !== seen) {
        seen = socket.bytesRead;
        quietSince = Date.now();
      } else if (Date.now() - quietSince >= idleMs) {
        clearInterval(timer);
        markCutOff(req);
        reject(new CodedError('ERROR_INVALID_PARAMETER', `the upload stalled: no data arrived for ${idleMs / 1000} s; send the whole body without pausing`, undefined, 408));
      }
    }, Math.min(250, idleMs / 4));
  });
  stalled.catch(() => {});
  const wait = <T>(p: Promise<T>): Promise<T> => { p.catch(() => {}); return Promise.race([p, stalled]); };
  return {
    wait,
    async *each<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
      const it = items[Symbol.asyncIterator]();
      for (;;) {
        const next = await wait(it.next());
        if (next.done) return;
        yield next.value;
      }
    },
    stop: () => clearInterval(timer),
  };
}

/** `idleMs`: an upload that sends nothing for this long is cut off with 408. */
export async function readUpload(req: FastifyRequest, endpoint: Endpoint, idleMs: number): Promise<Upload> {
  const watch = watchStall(req, idleMs);
  try {
    return await readParts(req, endpoint, watch);
  } finally {
    watch.stop();
  }
}

async function readParts(req: FastifyRequest, endpoint: Endpoint, watch: ReturnType<typeof watchStall>): Promise<Upload> {
  const imageFields = Object.entries(endpoint.fields).filter((e): e is [string, ImageField] => e[1].kind === 'image');
  const canonical = new Map<string, string>();
  for (const [name, f] of Object.entries(endpoint.fields)) {
    canonical.set(name, name);
    for (const a of f.aliases ?? []) canonical.set(a, name);
  }
  const maxBytes = Math.max(...imageFields.map(([, f]) => f.limits.maxBytes));

  if (!req.isMultipart()) {
    throw new CodedError('ERROR_INVALID_PARAMETER', `send multipart/form-data with the image in a file part named "image" (got ${req.headers['content-type'] ?? 'no content type'})`);
  }

  const raw: Record<string, string> = {};
  const files: Record<string, Buffer> = {};
  // A field's part name as sent, by field: a field sent twice (aliases count as the same field) is refused.
  const sent = new Map<string, string>();
  // Over-limit images of a field that another may make ignored (ignoredWith), judged once the form is read.
  const oversized = new Map<string, CodedError>();
  // busboy stops keeping a file's bytes at fileSize and flags it truncated. We judge that flag ourselves
  // (throwFileSizeLimit off): an image field over it is 413 by name, a part the endpoint does not know is
  // drained unread, like an unknown text field, whatever its size.
  // (A per-call option in @fastify/multipart's README, missing from its types for parts().)
  const options: Parameters<typeof req.parts>[0] & { throwFileSizeLimit: boolean } = {
    throwFileSizeLimit: false,
    limits: { fileSize: maxBytes, files: imageFields.length + 4, fields: 40, fieldSize: FIELD_MAX_BYTES, parts: 60 },
  };
  const parts = req.parts(options);
  for await (const part of watch.each(parts)) {
    const name = canonical.get(part.fieldname);
    if (name) {
      const first = sent.get(name);
      if (first !== undefined) {
        if (part.type === 'file') part.file.resume();
        const as = first === part.fieldname ? '' : ` (as ${first} and ${part.fieldname})`;
        throw new CodedError('ERROR_INVALID_PARAMETER', `${name} was sent more than once${as}; send each field once`);
      }
      sent.set(name, part.fieldname);
    }
    if (part.type === 'file') {
      const field = name ? endpoint.fields[name] : undefined;
      if (!name || !field) { part.file.resume(); continue; }
      if (field.kind !== 'image') {
        part.file.resume();
        throw new CodedError('ERROR_INVALID_PARAMETER', `${name}: expected a text value, got a file part (send it as a plain form field)`);
      }
      const bytes = await watch.wait(part.toBuffer());
      let tooLarge: CodedError | undefined;
      if (part.file.truncated) {
        tooLarge = new CodedError('FILE_SIZE_EXCEEDS_LIMIT', `${name} is larger than ${fmtMb(field.limits.maxBytes)}, the limit of ${endpoint.slug}`);
      } else if (bytes.length > field.limits.maxBytes) {
        tooLarge = new CodedError('FILE_SIZE_EXCEEDS_LIMIT', `${name} is ${fmtMb(bytes.length)}; ${endpoint.slug} accepts at most ${fmtMb(field.limits.maxBytes)}`);
      }
      if (tooLarge && !field.ignoredWith) throw tooLarge;
      if (tooLarge) oversized.set(name, tooLarge);
      else if (bytes.length > 0) files[name] = bytes;
    } else if (name) {
      if (endpoint.fields[name].kind === 'image') {
        throw new CodedError('ERROR_INVALID_PARAMETER', `${name}: expected a file upload (a multipart file part), got a text value`);
      }
      // busboy keeps the first FIELD_MAX_BYTES and drops the rest: never judge a value by its start.
      if (part.valueTruncated) {
        throw new CodedError('ERROR_INVALID_PARAMETER', `${name}: the value is longer than ${FIELD_MAX_BYTES / 1024} KB, the most a form field may carry`);
      }
      // A part declared application/json arrives parsed by @fastify/multipart: its JSON text again.
      raw[name] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
    }
  }

  // A field that another's presence makes ignored (beard styling's template under a preset) is dropped
  // unchecked; otherwise an over-limit one is refused now.
  for (const [name, field] of imageFields) {
    if (field.ignoredWith && raw[field.ignoredWith] !== undefined && raw[field.ignoredWith] !== '') {
      delete files[name];
      oversized.delete(name);
    }
  }
  for (const err of oversized.values()) throw err;

  const params = validateFields(endpoint, raw, new Set(Object.keys(files)));
  const images: Record<string, JobImage> = {};
  for (const [name, field] of imageFields) {
    const bytes = files[name];
    if (bytes) images[name] = checkImage(name, bytes, field);
  }
  return { params, images };
}

function checkImage(name: string, bytes: Buffer, field: ImageField): JobImage {
  const { limits } = field;
  const allowed = limits.formats.map((f) => formatLabel[f]).join(', ');
  const sniffed = sniffFormat(bytes);
  if (!sniffed || !limits.formats.includes(sniffed as ImageFormat)) {
    const what = sniffed ? sniffed.toUpperCase() : 'not an image format we recognise';
    throw new CodedError('UNSUPPORTED_FILE_TYPES', `${name}: the file is ${what}; allowed formats are ${allowed}`);
  }
  const format = sniffed as ImageFormat;
  let header;
  try {
    header = readHeader(bytes, format);
  } catch {
    throw new CodedError('FILE_DECODING_FAILURE', `${name}: the bytes start like ${formatLabel[format]} but the header cannot be read`);
  }
  if (header.unsupported) {
    throw new CodedError('UNSUPPORTED_FILE_TYPES', `${name}: ${header.unsupported} is not supported; allowed formats are ${allowed}`);
  }
  const { width, height } = header;
  if (width < limits.minSide || height < limits.minSide || width > limits.maxSide || height > limits.maxSide) {
    throw new CodedError('FILE_RESOLUTION_EXCEEDS_LIMITS',
      `${name} is ${width}x${height} px; each side must be from ${limits.minSide} to ${limits.maxSide} px (${describeLimits(limits)})`);
  }
  if (format === 'png' && header.bitsPerPixel && limits.pngRejectBitsPerPixel?.includes(header.bitsPerPixel)) {
    throw new CodedError('UNSUPPORTED_FILE_TYPES',
      `${name}: ${header.bitsPerPixel}-bit PNG is not supported here; use 24-bit RGB or 32-bit RGBA PNG, or JPEG or BMP`);
  }
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), format, maxPixels: limits.maxSide * limits.maxSide };
}
