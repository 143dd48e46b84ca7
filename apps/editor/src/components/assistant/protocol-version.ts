import {
  apiErrorSchema,
  PROTOCOL_OUTDATED_MESSAGE,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_ERROR,
  PROTOCOL_VERSION_HEADER,
} from "@coauthor/types";

// The page's run protocol and tool schemas version, sent with every request of a run (start,
// attach, tool result). A server on newer code refuses it (409) before sending a single frame or
// taking a result, and the panel says "Coauthor was updated — reload …" instead of running tools
// it may not know.

/** Headers naming this page's protocol version. */
export function protocolHeaders(headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, [PROTOCOL_VERSION_HEADER]: PROTOCOL_VERSION };
}

/** Whether an error answer's body is the server refusing this page's protocol version. */
export function isProtocolRefusal(status: number, body: unknown): boolean {
  const parsed = apiErrorSchema.safeParse(body);
  return status === 409 && parsed.success && parsed.data.code === PROTOCOL_VERSION_ERROR;
}

export { PROTOCOL_OUTDATED_MESSAGE };
