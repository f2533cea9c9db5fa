/** `npm run dev`: the studio with hot reload on the embedded engine. */
import { startStudio } from './studio-server.ts';

await startStudio('dev');
