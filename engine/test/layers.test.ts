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
  ])('fails lint for %s', async (_, filePath, code) => {
    expect(await problems(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    ['vision/regions using faces and parsing', 'engine/vision/regions/probe.ts', "import { detectFaces } from '../faces/detect.ts';\nimport type { FaceParsing } from '../parsing/face-parsing.ts';\nexport const f = detectFaces;\nexport type P = FaceParsing;\n"],
    ['looks using vision and image', 'engine/looks/probe.ts', "import { faceRegions } from '../vision/regions/face-regions.ts';\nimport { toLab } from '../image/colour.ts';\nexport const f = [faceRegions, toLab];\n"],
    ['an effect using looks', 'engine/effects/face-beauty/probe.ts', "import { whitenSkin } from '../../looks/tone.ts';\nexport const f = whitenSkin;\n"],
  ])('passes lint for %s', async (_, filePath, code) => {
    expect(await problems(filePath, code)).toEqual([]);
  });

  it('fails lint for an import cycle made of type-only imports', async () => {
    // mask.ts imports rect.ts's Rect type; rect.ts importing a type back closes the cycle.
    const rect = "import type { Mask } from './mask.ts';\nexport interface Rect { x0: number; y0: number; w: number; h: number }\nexport type M = Mask;\n";
    expect(await problems('engine/image/rect.ts', rect)).toContain('local/no-cycle');
  });
});
