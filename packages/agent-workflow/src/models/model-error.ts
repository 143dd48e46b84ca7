import { APICallError, JSONParseError, RetryError } from "ai";

function causeOf(error: Error): string {
  const cause = error.cause;
  return cause instanceof Error ? cause.message : cause === undefined ? error.message : String(cause);
}

/** A one-line description of a model provider failure for the run's `error` event. */
export function describeModelError(error: unknown): string {
  if (RetryError.isInstance(error)) {
    const attempts = error.errors.length;
    return `${describeModelError(error.lastError)} (gave up after ${attempts} attempt${attempts === 1 ? "" : "s"})`;
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) return `model provider unreachable: ${error.message}`;
    // A 2xx whose body could not be read: the connection broke mid-response.
    if (status < 300) return `model provider connection lost mid-response: ${causeOf(error)}`;
    return `model provider answered HTTP ${status}: ${error.message}`;
  }
  if (JSONParseError.isInstance(error)) {
    return `model provider sent a malformed stream chunk: ${JSON.stringify(error.text.slice(0, 80))}`;
  }
  return error instanceof Error ? error.message : String(error);
}
