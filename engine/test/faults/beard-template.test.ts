/**
 * Beard styling with a preset: the preset wins and image_template is ignored (docs/interface.md#beard-styling),
 * so it is neither checked (format, size, resolution) nor stored nor decoded.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import sharp from 'sharp';
import { form, pollTask, post, solidPng, startTestEngine, testInvertEffect, type TestEngine } from '../helpers.ts';

const BEARD = '/api/portrait/editing/ai-beard-styling';
let e: TestEngine;
beforeAll(async () => { e = await startTestEngine({ extraEffects: { 'ai-beard-styling': testInvertEffect } }); });
afterAll(async () => { await e.close(); });

it('ignores an image_template it would refuse when a beard preset is given', async () => {
  const gif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#884422' } }).gif().toBuffer();
  const huge = Buffer.concat([await solidPng(40, 40), Buffer.alloc(11 * 1024 * 1024)]); // over the 10 MB limit
  const garbage = Buffer.from('not an image at all');
  for (const template of [gif, huge, garbage]) {
    const r = await post(e, BEARD, form({ image: await solidPng(40, 30), beard: 'Goatee', image_template: template }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const task = e.app.services.tasks.get(r.body.task_id)!;
    expect(Object.keys(task.images)).toEqual(['image']); // not stored, so never decoded
    expect((await pollTask(e, r.body.task_id)).body.task_status).toBe(2);
  }
  // The preset after the template in the form: the template part arrives before the form says it is ignored.
  const f = new FormData();
  f.append('image', new Blob([new Uint8Array(await solidPng(40, 30))]), 'a.png');
  f.append('image_template', new Blob([new Uint8Array(gif)]), 't.gif');
  f.append('beard', 'Goatee');
  expect((await post(e, BEARD, f)).status).toBe(200);
});

it('still checks image_template when it is the source', async () => {
  const gif = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#884422' } }).gif().toBuffer();
  const r = await post(e, BEARD, form({ image: await solidPng(40, 30), image_template: gif }));
  expect(r.status).toBe(415);
  expect(r.body.error_detail.code).toBe('UNSUPPORTED_FILE_TYPES');
  expect(r.body.error_detail.message).toMatch(/image_template/);
});
