/**
 * The layers hold because lint says so: an import against the flow (eslint.config.js's zones) and an import
 * cycle of types alone fail `eslint`, while imports down the layers pass. Run through ESLint's own API on
 * made-up files, so nothing on disk changes.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rule ids of the problems ESLint finds in `code` as if it were the file at `filePath`. */
async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.map((m) => m.ruleId ?? m.message);
}

describe('engine layers', () => {
  it.each([
    ['engine/image reaching up into vision', 'engine/image/probe.ts', "import { detectFaces } from '../vision/faces/detect.ts';\nexport const f = detectFaces;\n"],
    ['engine/vision reaching up into looks', 'engine/vision/regions/probe.ts', "import { smoothMasked } from '../../looks/smooth.ts';\nexport const f = smoothMasked;\n"],
    ['engine/looks reaching up into the pipeline', 'engine/looks/probe.ts', "import { defineEffect } from '../pipeline/effect.ts';\nexport const f = defineEffect;\n"],
    ['engine/pipeline reaching up into an effect', 'engine/pipeline/probe.ts', "import effect from '../effects/face-beauty/effect.ts';\nexport const f = effect;\n"],
    ['vision/models reaching up into faces, for a type alone', 'engine/vision/models/probe.ts', "import type { Face } from '../faces/detect.ts';\nexport type F = Face;\n"],
    ['vision/faces reaching up into parsing', 'engine/vision/faces/probe.ts', "import { parseFace } from '../parsing/face-parsing.ts';\nexport const f = parseFace;\n"],
    ['vision/parsing reaching across into matting, a folder on its own step', 'engine/vision/parsing/probe.ts', "import { hairMask } from '../matting/person.ts';\nexport const f = hairMask;\n"],
    ['vision/matting reaching up into regions', 'engine/vision/matting/probe.ts', "import { faceRegions } from '../regions/face-regions.ts';\nexport const f = faceRegions;\n"],
    ['an effect reaching into another effect', 'engine/effects/skin-analysis-advanced/probe.ts', "import { ANALYZER_PARSING } from '../face-analyzer/tuning.ts';\nexport const f = ANALYZER_PARSING;\n"],
    ['vision/attributes reaching across into parsing, a folder on its own step', 'engine/vision/attributes/probe.ts', "import { parseFace } from '../parsing/face-parsing.ts';\nexport const f = parseFace;\n"],
  ])('fails lint for %s', async (_, filePath, code) => {
    expect(await problems(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['vision/regions using faces and parsing', 'engine/vision/regions/probe.ts', "import { detectFaces } from '../faces/detect.ts';\nimport type { FaceParsing } from '../parsing/face-parsing.ts';\nexport const f = detectFaces;\nexport type P = FaceParsing;\n"],
    ['looks using vision and image', 'engine/looks/probe.ts', "import { faceRegions } from '../vision/regions/face-regions.ts';\nimport { toLab } from '../image/colour.ts';\nexport const f = [faceRegions, toLab];\n"],
    ['an effect using looks', 'engine/effects/face-beauty/probe.ts', "import { whitenSkin } from '../../looks/tone.ts';\nexport const f = whitenSkin;\n"],
    ['an effect using the shared attribute models', 'engine/effects/skin-analysis-advanced/probe.ts', "import { faceAttributes } from '../../vision/attributes/attributes.ts';\nexport const f = faceAttributes;\n"],
  ])('passes lint for %s', async (_, filePath, code) => {
    expect(await problems(filePath, code)).toEqual([]);
  });

  it('fails lint for an import cycle made of type-only imports', async () => {
    // mask.ts imports rect.ts's Rect type; rect.ts importing a type back closes the cycle.
    const rect = "import type { Mask } from './mask.ts';\nexport interface Rect { x0: number; y0: number; w: number; h: number }\nexport type M = Mask;\n";
    expect(await problems('engine/image/rect.ts', rect)).toContain('local/no-cycle');
  });
});

describe('the scripts reach the engine through engine/for-scripts.ts (the studio\'s launcher starts it itself)', () => {
  it.each([
    ['a script reaching into vision', 'scripts/quality/probe.ts', "import { detectFaces } from '../../engine/vision/faces/detect.ts';\nexport const f = detectFaces;\n"],
    ['a script test reaching into an effect, for a type alone', 'scripts/bench/probe.test.ts', "import type { State } from '../../engine/effects/image-cropping/steps.ts';\nexport type S = State;\n"],
    ['engine code importing the scripts\' module', 'engine/effects/face-beauty/probe.ts', "import { ModelRegistry } from '../../for-scripts.ts';\nexport const f = ModelRegistry;\n"],
    ['a script other than the studio\'s launcher starting the engine itself', 'scripts/bench/probe.ts', "import { startEngine } from '../../engine/server.ts';\nexport const f = startEngine;\n"],
    ['a dev script other than the launcher reading the engine\'s config', 'scripts/dev/probe.ts', "import { configFromEnv } from '../../engine/config.ts';\nexport const f = configFromEnv;\n"],
  ])('fails lint for %s', async (_, filePath, code) => {
    expect(await problems(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it('passes lint for the studio\'s launcher starting the engine', async () => {
    const code = "import { startEngine } from '../../engine/server.ts';\nimport { configFromEnv } from '../../engine/config.ts';\nexport const f = [startEngine, configFromEnv];\n";
    expect(await problems('scripts/dev/studio-server.ts', code)).toEqual([]);
  });

  it('passes lint for a script using engine/for-scripts.ts and the contract', async () => {
    const code = "import { detectFaces } from '../../engine/for-scripts.ts';\nimport { endpointList } from '../../contract/index.ts';\nexport const f = [detectFaces, endpointList];\n";
    expect(await problems('scripts/quality/probe.ts', code)).toEqual([]);
  });
});
