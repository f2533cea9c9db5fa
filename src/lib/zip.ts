/**
 * A tiny store-only ZIP writer (no compression: the images are PNG/JPEG/WebP, already compressed). Enough of
 * APPNOTE 6.3 for every unzip tool: local headers, the data, a central directory, and UTF-8 names (flag bit 11).
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  data: Uint8Array;
  modified?: Date;
}

/** MS-DOS time and date of a Date (local time, 2-second resolution, from 1980). */
function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Names made unique ("car-cutout.png", "car-cutout-2.png"), as two results may be named alike. */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((n) => {
    const count = (seen.get(n) ?? 0) + 1;
    seen.set(n, count);
    return count === 1 ? n : n.replace(/(\.[^.]*)?$/, (ext) => `-${count}${ext}`);
  });
}

export function zipStore(entries: ZipEntry[]): Uint8Array<ArrayBuffer> {
  const enc = new TextEncoder();
  const names = uniqueNames(entries.map((e) => e.name)).map((n) => enc.encode(n));
  const size = entries.reduce((s, e, i) => s + 30 + names[i].length + e.data.length + 46 + names[i].length, 22);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  const central: { offset: number; crc: number; time: number; date: number }[] = [];
  let p = 0;
  entries.forEach((e, i) => {
    const { time, date } = dosTime(e.modified ?? new Date());
    const crc = crc32(e.data);
    central.push({ offset: p, crc, time, date });
    v.setUint32(p, 0x04034b50, true);
    v.setUint16(p + 4, 20, true); // version needed
    v.setUint16(p + 6, 0x0800, true); // UTF-8 names
    v.setUint16(p + 8, 0, true); // stored
    v.setUint16(p + 10, time, true);
    v.setUint16(p + 12, date, true);
    v.setUint32(p + 14, crc, true);
    v.setUint32(p + 18, e.data.length, true);
    v.setUint32(p + 22, e.data.length, true);
    v.setUint16(p + 26, names[i].length, true);
    v.setUint16(p + 28, 0, true);
    out.set(names[i], p + 30);
    out.set(e.data, p + 30 + names[i].length);
    p += 30 + names[i].length + e.data.length;
  });
  const cdStart = p;
  entries.forEach((e, i) => {
    const c = central[i];
    v.setUint32(p, 0x02014b50, true);
    v.setUint16(p + 4, 20, true); // made by
    v.setUint16(p + 6, 20, true);
    v.setUint16(p + 8, 0x0800, true);
    v.setUint16(p + 10, 0, true);
    v.setUint16(p + 12, c.time, true);
    v.setUint16(p + 14, c.date, true);
    v.setUint32(p + 16, c.crc, true);
    v.setUint32(p + 20, e.data.length, true);
    v.setUint32(p + 24, e.data.length, true);
    v.setUint16(p + 28, names[i].length, true);
    // extra, comment, disk, internal attributes: 0
    v.setUint32(p + 38, 0, true); // external attributes
    v.setUint32(p + 42, c.offset, true);
    out.set(names[i], p + 46);
    p += 46 + names[i].length;
  });
  v.setUint32(p, 0x06054b50, true);
  v.setUint16(p + 8, entries.length, true);
  v.setUint16(p + 10, entries.length, true);
  v.setUint32(p + 12, p - cdStart, true);
  v.setUint32(p + 16, cdStart, true);
  return out;
}

export async function zipBlobs(files: { name: string; blob: Blob }[]): Promise<Blob> {
  const entries = await Promise.all(files.map(async (f) => ({ name: f.name, data: new Uint8Array(await f.blob.arrayBuffer()) })));
  return new Blob([zipStore(entries)], { type: 'application/zip' });
}
