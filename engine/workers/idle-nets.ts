/**
 * The model host's open networks, each closed again once nothing has run it for `idleMs`. A session keeps
 * its arena (one run's working memory: ISNet at 1024 holds about 1.4 GB against 0.6 GB closed) as long
 * as it is open, so an engine that served one product cutout an hour ago gives that memory back; the next
 * run opens the network again (about 1 s for ISNet). `idleMs` 0 keeps every network open.
 */
export interface Closable { release(): Promise<void> }

export class IdleNets<N extends Closable> {
  private readonly nets = new Map<string, { net: Promise<N>; lastUsed: number; runs: number }>();

  constructor(private readonly openNet: (id: string) => Promise<N>, private readonly idleMs: number, private readonly now = () => Date.now()) {}

  /** The network, opened if needed; a failed open is forgotten, so a later call tries again. */
  open(id: string): Promise<N> {
    let entry = this.nets.get(id);
    if (!entry) {
      const net = this.openNet(id);
      entry = { net, lastUsed: this.now(), runs: 0 };
      this.nets.set(id, entry);
      net.catch(() => { if (this.nets.get(id)?.net === net) this.nets.delete(id); });
    }
    entry.lastUsed = this.now();
    return entry.net;
  }

  /** Runs `fn` on the network; it counts as in use until `fn` settles, so it is never closed under a run. */
  async use<T>(id: string, fn: (net: N) => Promise<T>): Promise<T> {
    const net = await this.open(id);
    const entry = this.nets.get(id);
    if (entry) entry.runs++;
    try {
      return await fn(net);
    } finally {
      if (entry) { entry.runs--; entry.lastUsed = this.now(); }
    }
  }

  /** Closes the networks idle for `idleMs` or more; returns their ids. */
  async closeIdle(): Promise<string[]> {
    if (this.idleMs <= 0) return [];
    const closed: string[] = [];
    for (const [id, entry] of [...this.nets]) {
      if (entry.runs > 0 || this.now() - entry.lastUsed < this.idleMs) continue;
      this.nets.delete(id);
      closed.push(id);
      await entry.net.then((n) => n.release(), () => {});
    }
    return closed;
  }

  get openIds(): string[] { return [...this.nets.keys()]; }
}
