/**
 * Form fields the engine must not guess at: a text value busboy cut at its 64 KB field limit, and a field
 * sent twice (an alias such as beard styling's `0.image` is the same field as `image`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { post, solidPng, startTestEngine, testInvertEffect, type TestEngine } from '../helpers.ts';

const CONTACTS = '/api/portrait/editing/ai-colored-contacts';
const LIPS = '/api/portrait/effects/lips-color-changer';
const BEARD = '/api/portrait/editing/ai-beard-styling';
const CROPPING = '/api/image/editing/image-cropping';
let e: TestEngine;
let png: Buffer;
beforeAll(async () => {
  e = await startTestEngine({ extraEffects: { 'ai-beard-styling': testInvertEffect, 'ai-colored-contacts': testInvertEffect, 'lips-color-changer': testInvertEffect } });
  png = await solidPng(40, 30);
});
afterAll(async () => { await e.close(); });

/** A form from [name, value] pairs in order; Buffers go as file parts. */
function parts(...entries: [string, string | Buffer][]): FormData {
  const f = new FormData();
  for (const [k, v] of entries) {
    if (typeof v === 'string') f.append(k, v);
    else f.append(k, new Blob([new Uint8Array(v)]), 'a.png');
  }
  return f;
}

const refused = (r: { status: number; body: any }, field: string) => {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error_detail.code).toBe('ERROR_INVALID_PARAMETER');
  expect(r.body.error_detail.message).toContain(field);
};

it('refuses a text value over the 64 KB field limit by name instead of reading its first 64 KB', async () => {
  // Not JSON as a whole, but its first 64 KB is: busboy's cut used to pass as a valid colour list.
  const info = JSON.stringify({ rgba: { r: 200, g: 0, b: 0, a: 50 } });
  const long = `[${info}]${' '.repeat(70 * 1024)},"not json"`;
  const r = await post(e, LIPS, parts(['image', png], ['lip_color_infos', long]));
  refused(r, 'lip_color_infos');
  expect(r.body.error_detail.message).toMatch(/64 KB/);
  const desc = 'blue '.repeat(14_000); // 70 KB; over maxLength too, but busboy cut it before we counted
  const r2 = await post(e, CONTACTS, parts(['image', png], ['desc', desc]));
  refused(r2, 'desc');
  expect(r2.body.error_detail.message).toMatch(/64 KB/);
});

it('refuses a text field sent twice, whatever the values', async () => {
  for (const [a, b] of [['100', '200'], ['100', '100'], ['', '100']]) {
    refused(await post(e, CROPPING, parts(['image', png], ['width', a], ['width', b], ['height', '100'])), 'width');
  }
  refused(await post(e, BEARD, parts(['image', png], ['beard', 'Goatee'], ['beard', 'Verdi'])), 'beard');
});

it('refuses an image field sent twice, aliases included', async () => {
  refused(await post(e, CROPPING, parts(['image', png], ['image', png], ['width', '10'], ['height', '10'])), 'image');
  const r = await post(e, BEARD, parts(['0.image', png], ['image', png], ['beard', 'Goatee']));
  refused(r, 'image');
  expect(r.body.error_detail.message).toContain('0.image');
  refused(await post(e, BEARD, parts(['image', png], ['image_template', png], ['1.image_template', png])), 'image_template');
});

it('still takes each field once, by name or by alias', async () => {
  expect((await post(e, BEARD, parts(['0.image', png], ['beard', 'Goatee']))).status).toBe(200);
  expect((await post(e, BEARD, parts(['image', png], ['1.image_template', png]))).status).toBe(200);
  expect((await post(e, CONTACTS, parts(['image', png], ['desc', 'blue '.repeat(200)], ['unknown', 'a'], ['unknown', 'b']))).status).toBe(200);
});

/** A multipart body by hand: [headers, content] per part. */
function rawForm(...parts: [string, string | Buffer][]) {
  const b = 'atelier-faults-boundary';
  const body = Buffer.concat([
    ...parts.flatMap(([headers, content]) => [Buffer.from(`--${b}\r\n${headers}\r\n\r\n`), Buffer.from(content), Buffer.from('\r\n')]),
    Buffer.from(`--${b}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${b}` };
}

it('reads a text field declared application/json as its JSON text', async () => {
  const { body, type } = rawForm(
    ['content-disposition: form-data; name="image"; filename="a.png"\r\ncontent-type: image/png', png],
    ['content-disposition: form-data; name="lip_color_infos"\r\ncontent-type: application/json', '[{"rgba":{"r":200,"g":0,"b":0,"a":50}}]'],
  );
  const r = await post(e, LIPS, body as unknown as string, { 'content-type': type });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
});

it('refuses a text field sent as a file part by name, instead of dropping it', async () => {
  const r = await post(e, CROPPING, parts(['image', png], ['width', Buffer.from('100')], ['height', '100']));
  refused(r, 'width');
  expect(r.body.error_detail.message).toMatch(/text/);
  const f = parts(['image', png]);
  f.append('lip_color_infos', new Blob(['[{"rgba":{"r":200,"g":0,"b":0,"a":50}}]'], { type: 'application/json' }), 'colours.json');
  refused(await post(e, LIPS, f), 'lip_color_infos');
});
