import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from './config.ts';

describe('configFromEnv', () => {
  it('gives every worker all cores for a model run, and at most 2 workers', () => {
    const cores = os.availableParallelism();
    const c = configFromEnv({});
    expect(c.modelThreads).toBe(cores);
    expect(c.workers).toBe(Math.min(2, cores));
  });

  it('takes the environment over the defaults, ignoring values that are not whole numbers', () => {
    const c = configFromEnv({ ATELIER_WORKERS: '3', ATELIER_MODEL_THREADS: '5', ATELIER_ENGINE_PORT: '9000' });
    expect([c.workers, c.modelThreads, c.port]).toEqual([3, 5, 9000]);
    expect(configFromEnv({ ATELIER_WORKERS: 'many' }).workers).toBe(Math.min(2, os.availableParallelism()));
  });

  it('reads the effects an operator switches off, and refuses a slug the contract does not know', () => {
    expect(configFromEnv({}).disabledEffects).toEqual([]);
    expect(configFromEnv({ ATELIER_DISABLED_EFFECTS: 'face-beauty, skin-analysis-advanced' }).disabledEffects).toEqual(['face-beauty', 'skin-analysis-advanced']);
    expect(() => configFromEnv({ ATELIER_DISABLED_EFFECTS: 'face-beuaty' })).toThrow(/unknown effect face-beuaty; the effects are .*face-beauty/);
  });

  it('preloads ISNet and RVM unless told otherwise, and refuses an id that is not an ONNX network of the catalog', () => {
    expect(configFromEnv({}).preloadModels).toEqual(['isnet-medium', 'rvm-onnx', 'bisenet-face-parsing@384']);
    expect(configFromEnv({ ATELIER_PRELOAD_MODELS: '' }).preloadModels).toEqual([]);
    expect(configFromEnv({ ATELIER_PRELOAD_MODELS: 'isnet-medium' }).preloadModels).toEqual(['isnet-medium']);
    expect(configFromEnv({ ATELIER_PRELOAD_MODELS: 'isnet-small, rvm-onnx' }).preloadModels).toEqual(['isnet-small', 'rvm-onnx']);
    expect(() => configFromEnv({ ATELIER_PRELOAD_MODELS: 'human' })).toThrow(/human is not an ONNX network of the catalog; those are .*isnet-medium/);
    expect(configFromEnv({ ATELIER_PRELOAD_MODELS: 'bisenet-face-parsing@384' }).preloadModels).toEqual(['bisenet-face-parsing@384']);
    expect(() => configFromEnv({ ATELIER_PRELOAD_MODELS: 'rvm-onnx@384' })).toThrow(/rvm-onnx@384 is not an ONNX network of the catalog; .*bisenet-face-parsing@<variant>/);
    expect(() => configFromEnv({ ATELIER_PRELOAD_MODELS: 'bisenet-face-parsing@' })).toThrow(/bisenet-face-parsing@ is not/);
  });
});
