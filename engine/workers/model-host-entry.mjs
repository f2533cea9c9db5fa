// As worker-entry.mjs: worker threads do not inherit the main thread's tsx loader on Node 20.
import { register } from 'tsx/esm/api';

register();
await import('./model-host.ts');
