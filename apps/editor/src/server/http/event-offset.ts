import { apiError } from "./errors";

/** Parses an event id offset (`?offset=`, `?from=`, Last-Event-ID + 1); a 400 response when it is not a non-negative integer. */
export function parseEventOffset(
  raw: string | null,
  surface: string,
): { ok: true; value: number } | { ok: false; response: Response } {
  const value = Number(raw ?? 0);
  if (Number.isInteger(value) && value >= 0) return { ok: true, value };
  return {
    ok: false,
    response: apiError(400, `bad_request:${surface}`, "the event offset must be a non-negative integer"),
  };
}
