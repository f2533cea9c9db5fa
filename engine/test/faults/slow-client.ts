/**
 * Clients that upload the way slow or hostile ones do, over node:http: a multipart body sent by hand that
 * can pause, trickle or stop, and whose answer is read whenever it comes (before the body is done, too).
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { TEST_KEY, type TestEngine } from '../helpers.ts';

export interface Answer { status: number; retryAfter: string | undefined; body: { error_detail?: { code: string; message: string }; task_id?: string } }

export interface SlowUpload {
  readonly answer: Promise<Answer>;
  readonly answered: Answer | undefined;
  /** Sends `bytes` bytes of a padding field every `everyMs` until finish() or abort(). */
  trickle(bytes: number, everyMs: number): void;
  /** Ends the form (stopping any trickle) and waits for the answer. */
  finish(): Promise<Answer>;
  abort(): void;
}

/**
 * Opens the upload and sends the image part at once; then nothing more (a stalled client) unless trickle()
 * or finish() is called. `fields` are text parts sent before the image.
 */
export function slowUpload(e: TestEngine, path: string, image: Buffer, fields: Record<string, string> = {}): SlowUpload {
  const b = `atelier${randomBytes(8).toString('hex')}`;
  const req = http.request(`${e.url}${path}`, {
    method: 'POST',
    headers: { 'service-api-key': TEST_KEY, 'content-type': `multipart/form-data; boundary=${b}` },
  });
  req.on('error', () => {}); // early answers and abort() end the socket under the writer
  for (const [k, v] of Object.entries(fields)) req.write(`--${b}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  req.write(`--${b}\r\ncontent-disposition: form-data; name="image"; filename="a.png"\r\ncontent-type: image/png\r\n\r\n`);
  req.write(image);
  req.write(`\r\n--${b}\r\ncontent-disposition: form-data; name="note"\r\n\r\n`);
  let drip: NodeJS.Timeout | undefined;
  let answered: Answer | undefined;
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      clearInterval(drip);
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        answered = { status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') };
        resolve(answered);
      });
      res.on('error', reject);
    });
    req.on('close', () => setTimeout(() => { if (!answered) reject(new Error('the connection closed without an answer')); }, 100));
  });
  answer.catch(() => {});
  return {
    answer,
    get answered() { return answered; },
    trickle(bytes, everyMs) { drip = setInterval(() => { if (!req.destroyed) req.write('x'.repeat(bytes)); }, everyMs); },
    finish() { clearInterval(drip); if (!req.destroyed) req.end(`\r\n--${b}--\r\n`); return answer; },
    abort() { clearInterval(drip); req.destroy(); },
  };
}
