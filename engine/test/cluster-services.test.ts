import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemon, startReady, stopDaemon } from './cluster-services.ts';
import { testDataDir } from './helpers.ts';

describe('startReady', () => {
  const started: ReturnType<typeof daemon>[] = [];
  afterEach(async () => { for (const d of started.splice(0)) await stopDaemon(d); });

  it('starts a daemon again when it exits before it is ready', async () => {
    const dir = testDataDir('atelier-daemons-');
    let attempts = 0;
    const start = () => {
      attempts++;
      const d = attempts === 1 ? daemon('flaky', 'sh', ['-c', 'echo port taken; exit 98'], dir) : daemon('flaky', 'sleep', ['30'], dir);
      started.push(d);
      return d;
    };
    const ready = await startReady('the flaky daemon to answer', start, () => (attempts === 2 ? 'up' : undefined), 10_000, []);
    expect(ready).toBe('up');
    expect(attempts).toBe(2);
  });

  it('gives up after three exits, with the end of its log', async () => {
    const dir = testDataDir('atelier-daemons-');
    let attempts = 0;
    const start = () => { attempts++; const d = daemon('dying', 'sh', ['-c', `echo attempt ${attempts} failed; exit 1`], dir); started.push(d); return d; };
    await expect(startReady('the dying daemon to answer', start, () => undefined, 10_000, [path.join(dir, 'dying.out')]))
      .rejects.toThrow(/exited 3 times[\s\S]*attempt 3 failed/);
    expect(attempts).toBe(3);
    expect(fs.readFileSync(path.join(dir, 'dying.out'), 'utf8')).toContain('attempt 1 failed');
  });
});
