/** USE-lite: the public surface. Conversion internals stay behind convert/ and model-cache.ts. */
export { CONVERTER_VERSION, convertTfjsModel } from "./convert/convert.js";
export {
  createUseLiteEncoder,
  type EncodedTokens,
  USE_LITE_DIM,
  USE_LITE_MAX_TOKENS,
  type UseLiteEncoder,
  type UseLiteOptions,
} from "./encoder.js";
export { createPooledEncoder, type PooledEncoderOptions } from "./encoder-pool.js";
export { DEFAULT_CACHE_DIR, ensureModel, REBUILD_COMMAND } from "./model-cache.js";
export { createTokenizer, type Tokenizer, type Vocabulary } from "./tokenizer.js";
