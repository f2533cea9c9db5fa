/**
 * The engine as the scripts under scripts/ see it (quality, speed, training, renders, the golden check):
 * exactly what they use, re-exported and grouped by layer. Scripts import the engine through this module only
 * (an ESLint zone holds them to it; contract/, shared data, they import directly), and nothing in the engine
 * imports it. The one exception is the studio's launcher, scripts/dev/studio-server.ts, which starts the
 * engine from server.ts and config.ts itself, so that `npm start` loads no more of the engine than the server
 * does. Some names here are exported by their modules for the scripts alone; one that no script uses any more
 * leaves this list, and its module stops exporting it unless the engine uses it elsewhere. A few get a longer
 * name here where the module's own is ambiguous among all of them.
 */

// Pixels: decoding and encoding, the raster, colour, masks, the change and texture measures the quality scripts
// judge by.
export { changedPixels, dilate, spill } from './image/change.ts';
export { deltaE, type Lab, labOf, labToRgb, LINEAR, linearToLab, rgbToLab, toLab } from './image/colour.ts';
export { decodeImage } from './image/decode.ts';
export { encodePhoto, encodePngFast } from './image/encode.ts';
export { decontaminate } from './image/foreground.ts';
export { bandEnergy, blurPlane, splitBands } from './image/frequency.ts';
export { lumaPlane } from './image/luma.ts';
export { type Mask } from './image/mask.ts';
export { seededRandom } from './image/random.ts';
export { type RasterImage } from './image/raster.ts';
export { type Rect } from './image/rect.ts';
export { readHeader, sniffFormat } from './image/sniff.ts';
export { readWindow } from './image/window.ts';

// The networks: the model registry the effects share, human (tfjs) and its tables, ONNX sessions and the
// conversions the speed scripts compare.
export { ONNX_INPUT as BISENET_ONNX_INPUT, ONNX_LOGITS as BISENET_ONNX_LOGITS } from './vision/models/bisenet-onnx.ts';
export { bisenetOnnxBytes, parserLogitsData } from './vision/models/bisenet.ts';
export { FACERES_INPUT, FACERES_OUTPUTS, faceresOnnxBytes } from './vision/models/faceres-onnx.ts';
export { faceConfig, faceMeshTables, type HumanLike, humanModel, type TensorLike } from './vision/models/human.ts';
export { readIsnetOnnx } from './vision/models/isnet-weights.ts';
export { type IsnetVariant, loadIsnet } from './vision/models/isnet.ts';
export { openLocalOnnx, sessionOptions } from './vision/models/onnx.ts';
export { ModelRegistry } from './vision/models/registry.ts';
export { scriptModelHost } from './workers/script-host.ts';
export { RVM_ONNX_INPUT, RVM_ONNX_OUTPUT, rvmModelJson, rvmOnnxBytes, rvmToOnnx } from './vision/models/rvm-onnx.ts';
export { readTfGraph } from './vision/models/tf-graph.ts';

// What vision finds: faces (detection, mesh, crops), body keypoints, face parsing, person and hair mattes, region
// masks, debug drawings.
export { renderDebug } from './vision/debug/render.ts';
export { cropRoi, cropRoiPixels, roiPoint } from './vision/faces/crop.ts';
export { detectFaces, type Face, faceApiDetector } from './vision/faces/detect.ts';
export {
  FACE_OVAL, LEFT_BROW, LEFT_EYE, LIPS_LOWER_OUTER, LIPS_UPPER_OUTER, RIGHT_BROW, RIGHT_EYE
} from './vision/faces/landmarks.ts';
export { ROI_SCALE } from './vision/faces/mesh.ts';
export { hairFromMatte } from './vision/matting/hair.ts';
export { hairMask, PERSON_MODEL, personMatte, personMatteWith, type PersonModel } from './vision/matting/person.ts';
export {
  classMask, type FaceParser, type FaceParsing, parseFace, parseFaceAt, type ParseOptions, PARSING_CLASSES,
  INPUT as PARSING_INPUT, parsingRoi
} from './vision/parsing/face-parsing.ts';
export { bodyKeypoints } from './vision/pose/keypoints.ts';
export { combineWithMesh, type PartName } from './vision/regions/combine.ts';
export { faceRegions, type RegionName } from './vision/regions/face-regions.ts';
export { handPlane, handsAtFace } from './vision/regions/hands.ts';
export { objectPlane, objectsNearFace } from './vision/regions/objects.ts';
export { OCCLUSION_CUES, OCCLUSION_PARSING, occlusionPlane } from './vision/regions/occlusion.ts';
export {
  meshFaceWidth, parsingPlane, retouchMasks, retouchWindow, spareLowerFace
} from './vision/regions/skin-mask.ts';

// Looks: the face edits two or more effects share (beard mask and removal, smoothing, tone), with the tuning the
// render and quality scripts vary.
export { BEARD_PARSING, BEARD_REGIONS, beardMask } from './looks/beard/mask.ts';
export { beardTuning, removalTuning } from './looks/beard/tuning.ts';
export { faceEps, faceShapeBand, sizeRamp, smoothMasked } from './looks/smooth.ts';
export { whitenSkin } from './looks/tone.ts';

// The effect frame: an effect, its steps and context, the job's shared facts, running one in this process, step
// timings.
export {
  type Ctx, defineEffect, type Effect, runStep, type Step, Steps, stepContext, steps, withState
} from './pipeline/effect.ts';
export { jobFacts, type JobFacts } from './pipeline/facts.ts';
export { runEffect } from './pipeline/run.ts';
export { type StepTime } from './pipeline/timing.ts';

// The effects: slug to module (scripts that run every effect), then per effect the parts its quality, speed and
// training scripts run on their own or tune.
export { effectModules } from './effects/registry.ts';
// - beard removal: a short beard drawn onto a clean face
export { drawStubble } from './effects/ai-beard-removal/synthetic-beard.ts';
// - beard styling: the presets, their shape on a face, the per-face edit
export { BEARD_PRESETS, type UV } from './effects/ai-beard-styling/presets.ts';
export { faceShape } from './effects/ai-beard-styling/shape.ts';
export { styleFace, PARSE as STYLING_PARSING } from './effects/ai-beard-styling/steps.ts';
export { cutExemplar, encodeCanonical, type ExemplarInfo, loadLibrary as loadBeardLibrary } from './effects/ai-beard-styling/exemplar.ts';
// - coloured contacts: the lens and the quality measures of a result
export { default as coloredContactsEffect } from './effects/ai-colored-contacts/effect.ts';
export { type Lens, readLens } from './effects/ai-colored-contacts/lens.ts';
export { type ContactsMeasure, measureContacts } from './effects/ai-colored-contacts/measure.ts';
// - hair loss: the head frame and the hair cover
export { default as hairLossEffect } from './effects/ai-hair-loss-simulation/effect.ts';
export { fromHead, headFrame, toHead } from './effects/ai-hair-loss-simulation/hairline.ts';
export { faceHairCover, type P as HairLossParams } from './effects/ai-hair-loss-simulation/steps.ts';
export { scalpMeasures, type ScalpMeasures } from './effects/ai-hair-loss-simulation/measure.ts';
export { MIN_HAIR_COVER } from './effects/ai-hair-loss-simulation/tuning.ts';
// - red lip gloss
export { default as redLipGlossEffect } from './effects/ai-red-lip-gloss/effect.ts';
export { RED as GLOSS_RED } from './effects/ai-red-lip-gloss/tuning.ts';
// - the square-face avatar
export { default as squareFaceEffect } from './effects/ai-square-face-filter/effect.ts';
// - apparel: the steps, the garment parse and the learned model train/apparel.ts fits
export { default as apparelEffect, MATTE_MODEL as APPAREL_MATTE_MODEL } from './effects/apparel-background-removal/effect.ts';
export { garmentClasses } from './effects/apparel-background-removal/garment-classes.ts';
export { FEATURES } from './effects/apparel-background-removal/garments/apparel-features.ts';
export {
  type BoostedTrees, predictProba, readModel, softmax, type Tree, treeValue
} from './effects/apparel-background-removal/garments/boosted-trees.ts';
export { contextRows, withContext } from './effects/apparel-background-removal/garments/context.ts';
export { HEAD_CLASSES, type HeadClass } from './effects/apparel-background-removal/garments/head-parsing.ts';
export {
  apparelModel, type ApparelModel, averageProba, candidateFeatures, candidateNeighbours, candidateRegions, classesOf,
  CONTEXT_STAGE_FEATURES, meanProba, mixProba, MODEL_CLASSES, predictRegions, readApparelModel,
  smooth as smoothRegionProba
} from './effects/apparel-background-removal/garments/learned.ts';
export {
  layerForward, type Mlp, mlpInputs, predictMlp, readMlp
} from './effects/apparel-background-removal/garments/mlp.ts';
export { type GarmentParse, parseGarments } from './effects/apparel-background-removal/garments/parse.ts';
export { parseByRules } from './effects/apparel-background-removal/garments/rules.ts';
export { MISSING as FEATURE_MISSING, L as GARMENT_LABEL } from './effects/apparel-background-removal/garments/scene.ts';
export { LOWER_VOTE, SMOOTHING } from './effects/apparel-background-removal/garments/learned-tuning.ts';
export {
  type P as ApparelParams, parse as apparelParseStep, type ParseState as ApparelParseState, buildMasks, encodeOutputs,
  matteAndPerson, parseFacesAround, parseInput, workSize
} from './effects/apparel-background-removal/steps.ts';
// - product cutout: the matte and its edge refinement
export {
  type Alpha as CommodityAlpha, applyReturnForm, type P as CommodityParams,
  type Predicted as CommodityPredicted, decontaminateEdges, encodeResult, guidedUpscale, predictMatte, refineEdges, resizeMatte
} from './effects/commodity-background-removal/steps.ts';
export {
  CONTEXT as COMMODITY_CONTEXT, FOREGROUND_RADII, MODEL as COMMODITY_MODEL
} from './effects/commodity-background-removal/tuning.ts';
// - the face analyzer: attribute models, calibration, geometry and part measures
export {
  AGE_CAP, AGE_WINDOW, ageProbability, shiftMale, temperatureScale
} from './vision/attributes/attribute-calibration.ts';
export {
  attributeModelInputs, type Border, faceRoi, wholeRoi
} from './vision/attributes/attribute-crops.ts';
export {
  type AgeDecode, averageViews, decodeAge, meanAttributes
} from './vision/attributes/attribute-decode.ts';
export {
  registryNets, runAttributeModel, runAttributeModelViews
} from './vision/attributes/attribute-models.ts';
export {
  ATTRIBUTE_MODELS, type AttributeModelSpec, type RawAttributes
} from './vision/attributes/attribute-specs.ts';
export { faceAttributes, imageAttributes } from './vision/attributes/attributes.ts';
export {
  type Coded, decide as decideGeometry, PROTOTYPES as GEOMETRY_PROTOTYPES, RULES as GEOMETRY_RULES,
  type GeometryAttributes, geometryFeatures, type GeometryFeatures, logit as geometryLogit, type LogisticRule
} from './effects/face-analyzer/analysis/geometry-attributes.ts';
export { type GeometryMeasures, measureGeometry } from './effects/face-analyzer/analysis/geometry-measures.ts';
export { decideParts, greyFace, type PartAttributes, type PartFeatures } from './effects/face-analyzer/analysis/part-attributes.ts';
export { partInputs } from './effects/face-analyzer/analysis/part-inputs.ts';
export { measureParts } from './effects/face-analyzer/analysis/part-measures.ts';
export { default as faceAnalyzerEffect } from './effects/face-analyzer/effect.ts';
export {
  ANALYZER_PARSING, HAIR_RVM_SIDE
} from './effects/face-analyzer/tuning.ts';
export { PIPELINE as ATTRIBUTE_PIPELINE } from './vision/attributes/pipeline.ts';
// - face beauty: the per-face retouch and its tuning
export { sharpenMasked } from './effects/face-beauty/sharpen.ts';
export { retouchFace as beautyRetouchFace } from './effects/face-beauty/steps.ts';
export { BEAUTY_FACES, BEAUTY_PARSING, TUNING as BEAUTY_TUNING } from './effects/face-beauty/tuning.ts';
// - smart crop: the subject search and the window
export { type Size as CropSize, windowSize } from './effects/image-cropping/crop-window.ts';
export { findSubjectAt, smartCrop } from './effects/image-cropping/effect.ts';
export { chooseWindow, type Found as CroppingFound } from './effects/image-cropping/steps.ts';
export { SALIENCY_SIDE } from './effects/image-cropping/tuning.ts';
// - lip colour
export { default as lipsColorEffect } from './effects/lips-color-changer/effect.ts';
// - skin analysis: the frame, the analysis, its maps, ridges and synthetic findings
export { anchoredSkinAge, skinAgeOf, toAgeScale } from './effects/skin-analysis-advanced/skin/age.ts';
export { analyseSkin, labFrame, makeFrame, type SkinAnalysis } from './effects/skin-analysis-advanced/skin/analyse.ts';
export { toImage as frameToImage } from './effects/skin-analysis-advanced/skin/frame.ts';
export { lesionKind, around as skinAroundBlob } from './effects/skin-analysis-advanced/skin/lesions.ts';
export { renderMaps } from './effects/skin-analysis-advanced/skin/maps.ts';
export { LESION_KINDS, type LesionKind, type MemberName } from './effects/skin-analysis-advanced/skin/names.ts';
export {
  CREASE_SHARPNESS, foldShape, type FoldShape, ridgeField
} from './effects/skin-analysis-advanced/skin/ridges.ts';
export { eyeArea, resolvedScale, sharpness } from './effects/skin-analysis-advanced/skin/sharpness.ts';
export {
  renderSynthetic, type Synthetic, type SyntheticKind
} from './effects/skin-analysis-advanced/skin/synthetic.ts';
export { SKIN_PARSING, zoneGrid } from './effects/skin-analysis-advanced/skin/zones.ts';
export {
  AGE_MODEL, COMEDONE_MIN_PX, LINES as SKIN_LINES, RIDGE_SIGMAS, SKIN_AGE_ANCHOR
} from './effects/skin-analysis-advanced/tuning.ts';
// - smart skin: the per-face retouch and the blemish finder
export { type BlemishKind, findBlemishes, pixelsPerMm } from './effects/smart-skin-advanced/blemishes.ts';
export { firm as firmMask, planOf, retouchFace as smartSkinRetouchFace } from './effects/smart-skin-advanced/steps.ts';
export { SKIN_FACES } from './effects/smart-skin-advanced/tuning.ts';

// A real engine on a loopback port (the tests' helpers), for the speed scripts that time requests over HTTP.
export {
  form as httpForm, get as httpGet, post as httpPost, pollTask, solidPng, startTestEngine, TEST_KEY, testDataDir, type TestEngine, waitReady
} from './test/helpers.ts';
// The cluster's services on loopback (the cluster test's) and its stores, for the cluster submit bench.
export { type SharedServices, spawnEngineProcess, startSharedServices } from './test/cluster-services.ts';
export { prepareBucket, s3Client, S3BlobStore } from './results/s3-blob-store.ts';
export { INPUT_KEY } from './tasks/store.ts';
export { RedisTaskBackend } from './tasks/redis-backend.ts';
export { CachedBlobStore } from './results/cached-blob-store.ts';
export { RESULT_NAME } from './results/store.ts';
export { readBlob } from './results/blob-store.ts';
export { loadFaceApi, SSD_SIDE, type FaceApiNets } from './vision/models/face-api.ts';
export { tilePixels, wholeImage } from './vision/faces/view.ts';
// - beard removal: the library of clean-shaven lower faces
export { cutSkin, encodeSkin, SKIN_SKIRT, type SkinInfo } from './effects/ai-beard-removal/skin-library.ts';
export { faceWindow } from './vision/regions/uv-map.ts';
