/** Studio test setup: an in-memory IndexedDB (fake-indexeddb) and a clean DOM after each test. */
import 'fake-indexeddb/auto';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// jsdom's Blob has no arrayBuffer(); browsers do. Read through jsdom's FileReader instead.
if (typeof Blob !== 'undefined' && typeof Blob.prototype.arrayBuffer !== 'function' && typeof FileReader !== 'undefined') {
  Blob.prototype.arrayBuffer = function arrayBuffer(this: Blob) {
    return new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(this);
    });
  };
}
