// A child process of the model host (optimized-models.ts): opens one network from its bytes with
// onnxruntime saving the graph it optimised, then exits, giving all that memory back.
//   node save-optimized-model.mjs <catalog:id | file:path> <out file> <threads> <bytes to keep free>
import { register } from 'tsx/esm/api';

register();
const { saveOptimizedModel } = await import('./save-optimized-model.ts');
try {
  await saveOptimizedModel(process.argv[2], process.argv[3], Number(process.argv[4]), Number(process.argv[5]));
  process.exit(0);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
