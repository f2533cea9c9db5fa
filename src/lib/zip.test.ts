import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { crc32, uniqueNames, zipStore } from './zip.ts';

describe('zipStore', () => {
  it('computes the ZIP CRC-32', () => {
    expect(crc32(new TextEncoder().encode('hello'))).toBe(0x3610a686);
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it('names alike results apart', () => {
    expect(uniqueNames(['a.png', 'a.png', 'b', 'b'])).toEqual(['a.png', 'a-2.png', 'b', 'b-2']);
  });

  it('writes an archive that Python\'s zipfile reads back byte for byte', () => {
    const png = new Uint8Array(5000).map((_, i) => (i * 31) % 256);
    const zip = zipStore([
      { name: 'car-cutout.png', data: png, modified: new Date(2026, 10, 25, 9, 30, 12) },
      { name: 'café-crop.jpg', data: new TextEncoder().encode('jpeg bytes') },
      { name: 'car-cutout.png', data: new Uint8Array([1, 2, 3]) },
    ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zip-'));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'out.zip');
    fs.writeFileSync(file, zip);
    const script = `import zipfile,sys,json,hashlib
z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None
print(json.dumps([[i.filename,i.file_size,hashlib.sha1(z.read(i)).hexdigest(),list(i.date_time)] for i in z.infolist()]))`;
    const listed = JSON.parse(execFileSync('python3', ['-c', script, file]).toString()) as [string, number, string, number[]][];
    expect(listed.map((l) => [l[0], l[1]])).toEqual([['car-cutout.png', 5000], ['café-crop.jpg', 10], ['car-cutout-2.png', 3]]);
    expect(listed[0][3]).toEqual([2026, 11, 25, 9, 30, 12]);
  });
});
