/** `npm start`: the built studio on the embedded engine (run after `vite build`). */
import { startStudio } from './studio-server.ts';

await startStudio('preview');
