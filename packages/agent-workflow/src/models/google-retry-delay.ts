// The Gemini API says how long to wait after a 429 in its error body
// (`google.rpc.RetryInfo.retryDelay`, e.g. "27s"), not in a `retry-after`
// header, so the AI SDK's retry (which honours only headers) would fall back to
// its own 2 s / 4 s backoff and spend its attempts too early. This fetch copies
// the body's delay into `retry-after`; everything else passes through untouched.

const RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo";

/** The wait a Google error body asks for, in seconds (undefined when it names none). */
export function googleRetryDelaySeconds(body: unknown): number | undefined {
  const details = (body as { error?: { details?: unknown } } | null)?.error?.details;
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const { "@type": type, retryDelay } = detail as { "@type"?: unknown; retryDelay?: unknown };
    if (type !== RETRY_INFO || typeof retryDelay !== "string") continue;
    const seconds = Number.parseFloat(retryDelay);
    if (retryDelay.endsWith("s") && Number.isFinite(seconds) && seconds >= 0) return seconds;
  }
  return undefined;
}

/** `fetch` for the Google provider: a 429 carries its body's retry delay as `retry-after`. */
export async function fetchWithGoogleRetryDelay(
  input: Parameters<typeof fetch>[0],
  init?: Parameters<typeof fetch>[1],
): Promise<Response> {
  const response = await fetch(input, init);
  if (response.status !== 429 || response.headers.has("retry-after")) return response;
  const text = await response.text();
  let seconds: number | undefined;
  try {
    seconds = googleRetryDelaySeconds(JSON.parse(text));
  } catch (error) {
    // Not JSON: the SDK reports the body as it came; there is no delay to copy.
    if (!(error instanceof SyntaxError)) throw error;
  }
  const headers = new Headers(response.headers);
  if (seconds !== undefined) headers.set("retry-after", String(seconds));
  return new Response(text, { status: response.status, statusText: response.statusText, headers });
}
