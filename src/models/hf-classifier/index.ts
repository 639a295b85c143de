/**
 * Bring-your-own models: a local Hugging Face text-classification export, run through
 * @huggingface/transformers with every remote path switched off.
 */
export {
  type HfClassifierOptions,
  type HfTextClassifier,
  loadHfTextClassifier,
  readForLabel,
} from "./classifier.js";
export { EXPECTED_LAYOUT, labelIndex } from "./folder.js";
export {
  type HfSequenceClassifier,
  loadHfSequenceClassifier,
  MAX_MODEL_WINDOWS,
  type SequenceClassifierOptions,
} from "./sequence-classifier.js";
