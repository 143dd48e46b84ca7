import {
  PROTOCOL_OUTDATED_MESSAGE,
  PROTOCOL_VERSION,
  PROTOCOL_VERSION_ERROR,
  PROTOCOL_VERSION_HEADER,
  protocolVersionSchema,
} from "@coauthor/types";
import { apiError } from "@/server/http/errors";

/**
 * The refusal for a request whose tab speaks another protocol than this server (or says none: code
 * from before versions), or undefined when they agree. Checked before anything is changed, on
 * starting a run, attaching to one and posting a tool result.
 */
export function protocolMismatch(request: Request): Response | undefined {
  const sent = protocolVersionSchema.safeParse(request.headers.get(PROTOCOL_VERSION_HEADER));
  if (sent.success && sent.data === PROTOCOL_VERSION) return undefined;
  const said = sent.success ? `protocol ${sent.data}` : "no protocol version";
  const response = apiError(
    409,
    PROTOCOL_VERSION_ERROR,
    `${PROTOCOL_OUTDATED_MESSAGE} (the page sent ${said}; the server speaks ${PROTOCOL_VERSION})`,
  );
  response.headers.set(PROTOCOL_VERSION_HEADER, PROTOCOL_VERSION);
  return response;
}
