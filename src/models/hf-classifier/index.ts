/**
 * Bring-your-own injection model: a local Hugging Face text-classification export, run through
 * @huggingface/transformers with every remote path switched off.
 */
export { type HfClassifierOptions, type HfTextClassifier, loadHfTextClassifier } from "./classifier.js";
export { EXPECTED_LAYOUT } from "./folder.js";
