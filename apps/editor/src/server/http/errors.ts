import { type ApiError, parseClientJson } from "@coauthor/types";
import { crossSiteRefusal } from "./same-origin";

/** A JSON error response with a `<kind>:<surface>` code. */
export function apiError(status: number, code: string, message: string, headers?: HeadersInit): Response {
  const body: ApiError = { code, message };
  return Response.json(body, { status, headers });
}

/** Reads a JSON body of at most `maxBytes`; a typed 400/413 response otherwise. */
export async function readJsonBody(
  request: Request,
  surface: string,
  maxBytes: number,
): Promise<{ ok: true; value: unknown; text: string } | { ok: false; response: Response }> {
  const crossSite = crossSiteRefusal(request);
  if (crossSite) {
    const code = crossSite.status === 415 ? `unsupported_media_type:${surface}` : `forbidden:${surface}`;
    return { ok: false, response: apiError(crossSite.status, code, crossSite.message) };
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    return {
      ok: false,
      response: apiError(413, `payload_too_large:${surface}`, `body exceeds ${maxBytes} bytes`),
    };
  }
  const text = await readLimited(request, maxBytes);
  if (text === null) {
    return {
      ok: false,
      response: apiError(413, `payload_too_large:${surface}`, `body exceeds ${maxBytes} bytes`),
    };
  }
  const parsed = parseClientJson(text);
  if (parsed.ok) return { ok: true, value: parsed.value, text };
  const { path, message } = parsed.problem;
  return { ok: false, response: apiError(400, `bad_request:${surface}`, `${path} ${message}`) };
}

async function readLimited(request: Request, maxBytes: number): Promise<string | null> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Formats zod issues as one readable line: `field: problem; …`. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join(".") || "body"}: ${i.message}`).join("; ");
}
