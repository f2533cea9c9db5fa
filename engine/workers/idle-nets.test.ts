import { describe, expect, it } from 'vitest';
import { IdleNets } from './idle-nets.ts';

function fakeNets() {
  const opened: string[] = [];
  const released: string[] = [];
  const open = async (id: string) => {
    if (id === 'broken') throw new Error('no such net');
    opened.push(id);
    return { id, release: async () => { released.push(id); } };
  };
  return { opened, released, open };
}

describe('IdleNets', () => {
  it('opens a network once and closes it only after idleMs without use', async () => {
    let t = 0;
    const f = fakeNets();
    const nets = new IdleNets(f.open, 1000, () => t);
    await nets.use('a', async () => 1);
    await nets.use('a', async () => 2);
    expect(f.opened).toEqual(['a']);
    t = 999;
    expect(await nets.closeIdle()).toEqual([]);
    t = 2000;
    expect(await nets.closeIdle()).toEqual(['a']);
    expect(f.released).toEqual(['a']);
    expect(nets.openIds).toEqual([]);
    await nets.use('a', async () => 3); // opened again on demand
    expect(f.opened).toEqual(['a', 'a']);
  });

  it('never closes a network while a run is under way, however long it takes', async () => {
    let t = 0;
    const f = fakeNets();
    const nets = new IdleNets(f.open, 1000, () => t);
    let finish!: () => void;
    const run = nets.use('a', () => new Promise<void>((r) => { finish = r; }));
    await new Promise((r) => setTimeout(r, 0));
    t = 5000;
    expect(await nets.closeIdle()).toEqual([]);
    finish();
    await run;
    t = 5999;
    expect(await nets.closeIdle()).toEqual([]); // idle counts from the run's end
    t = 6000;
    expect(await nets.closeIdle()).toEqual(['a']);
  });

  it('keeps every network with idleMs 0, and forgets a failed open', async () => {
    let t = 0;
    const f = fakeNets();
    const nets = new IdleNets(f.open, 0, () => t);
    await nets.use('a', async () => 1);
    await expect(nets.use('broken', async () => 1)).rejects.toThrow('no such net');
    t = 1e9;
    expect(await nets.closeIdle()).toEqual([]);
    expect(nets.openIds).toEqual(['a']);
  });
});
