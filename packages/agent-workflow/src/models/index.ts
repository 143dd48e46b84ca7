export { chatAnswer, chatText } from "./chat.ts";
export type { ModelPrice } from "./model-price.ts";
export {
  createOfflineModel,
  DOCUMENT_CONTEXT_CLOSE,
  DOCUMENT_CONTEXT_OPEN,
  OFFLINE_MODEL_ID,
  OFFLINE_MODEL_LABEL,
} from "./offline-model.ts";
export { costMicroUsd, modelPrice } from "./prices.ts";
export {
  assertModelConfig,
  defaultModelId,
  isAllowedModel,
  listModels,
  registerModel,
  resolveModel,
} from "./registry.ts";
