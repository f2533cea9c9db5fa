/** The soak's choices: every endpoint's parameters pass the contract, photos pass the limits, loopback only. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { endpointList } from '../../contract/index.ts';
import { validateFields } from '../../contract/validate.ts';
import { imageField, type ImageField } from '../../contract/fields.ts';
import { limits } from '../../contract/limits.ts';
import { accepts, engineScriptEnv, isLoopbackUrl, paramsFor, percentile, photosFor } from './soak-plan.ts';

const testdata = process.env.ATELIER_TESTDATA ?? path.resolve(import.meta.dirname, '../../../shared/testdata');

describe('soak plan', () => {
  it('spawns the engine with what package.json\'s engine script sets before node (two malloc arenas, no huge pages)', () => {
    expect(engineScriptEnv(path.resolve(import.meta.dirname, '../../package.json'))).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' });
  });

  it('gives every endpoint parameters its contract accepts, on every rotation', () => {
    for (const endpoint of endpointList.filter((e) => e.mode !== 'query')) {
      const images = new Set(Object.entries(endpoint.fields).filter(([, f]) => f.kind === 'image' && f.required).map(([n]) => n));
      for (let i = 0; i < 12; i++) {
        expect(() => validateFields(endpoint, paramsFor(endpoint, i), images), `${endpoint.slug} #${i}`).not.toThrow();
      }
    }
  });

  it('varies the parameters it can (not the same request over and over)', () => {
    const cut = endpointList.find((e) => e.slug === 'commodity-background-removal')!;
    expect(new Set([0, 1, 2, 3].map((i) => JSON.stringify(paramsFor(cut, i)))).size).toBe(4);
  });

  it('refuses photos outside a field\'s limits, as the engine would', async () => {
    const field = imageField(limits.product);
    const jpeg = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#888' } }).jpeg().toBuffer();
    expect(accepts(field, await jpeg(640, 480))).toBe(true);
    expect(accepts(field, await jpeg(2000, 480))).toBe(false);
    const grey = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#888' } }).toColourspace('b-w').png().toBuffer();
    expect(accepts(field, grey)).toBe(false); // 8-bit PNG: the product endpoint refuses it
    expect(accepts(imageField(limits.cropping), grey)).toBe(true);
  });

  it.runIf(existsSync(testdata))('finds shared photos that fit every endpoint', () => {
    for (const endpoint of endpointList.filter((e) => e.mode !== 'query')) {
      const photos = photosFor(endpoint, endpoint.fields.image as ImageField, testdata);
      expect(photos.length, endpoint.slug).toBeGreaterThan(2);
      for (const p of photos) expect(accepts(endpoint.fields.image as ImageField, p.bytes), p.name).toBe(true);
    }
  });

  it('talks to loopback only', () => {
    for (const ok of ['http://127.0.0.1:8787', 'http://localhost:1/', 'http://[::1]:8787', 'http://127.1.2.3']) expect(isLoopbackUrl(ok), ok).toBe(true);
    for (const no of ['http://10.0.0.1:8787', 'http://example.com', 'http://127.0.0.1.example.com', 'file:///etc/passwd', 'not a url', 'http://0.0.0.0:8787']) {
      expect(isLoopbackUrl(no), no).toBe(false);
    }
  });

  it('takes nearest-rank percentiles', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 95)).toBe(95);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });
});
