import { z } from "zod";

// The shape of a model's price, apart from the price list (prices.ts): the environment validates
// `MODEL_PRICES` against it (env.ts) and the price list reads that environment, so the shape sits
// below both.

/** A model's price, in USD per million tokens. */
export const modelPriceSchema = z.strictObject({
  input: z.number().min(0),
  output: z.number().min(0),
  /** Input served from the prompt cache; default: `input`. */
  cachedInput: z.number().min(0).optional(),
  /** Input written to the prompt cache (Anthropic); default: `input`. */
  cacheWrite: z.number().min(0).optional(),
});
export type ModelPrice = z.infer<typeof modelPriceSchema>;

/** Prices by model id, as `MODEL_PRICES` sets them. */
export const modelPricesSchema = z.record(z.string().min(1), modelPriceSchema);
