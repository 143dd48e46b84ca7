import { z } from "zod";

// What a browser tab and the server must agree on to run an agent together. A rolling restart
// leaves tabs open on older code: such a tab must be refused cleanly (and told to reload) rather
// than be sent frames it misreads or tool calls it cannot run. Bump a number on any change that
// an older tab would get wrong.

/** The run protocol: the SSE events of a run, the tool-call frames and the callback body. */
export const RUN_PROTOCOL_VERSION = 1;
/** The tool schemas (`@coauthor/types/tools`): the tools, their inputs and their outputs. */
export const TOOL_SCHEMAS_VERSION = 1;
/** What the tab sends and the server expects: `<run protocol>.<tool schemas>`. */
export const PROTOCOL_VERSION = `${RUN_PROTOCOL_VERSION}.${TOOL_SCHEMAS_VERSION}`;
/** The request header carrying it (starting or attaching to a run, posting a tool result). */
export const PROTOCOL_VERSION_HEADER = "x-coauthor-protocol";
/** A protocol version as sent (the server compares it with its own). */
export const protocolVersionSchema = z.string().regex(/^\d{1,6}\.\d{1,6}$/, "expected <run>.<tools>");
/** The error code of a refusal (HTTP 409). */
export const PROTOCOL_VERSION_ERROR = "conflict:protocol_version";
/** What the tab shows when refused: also the refusal's message, so tabs older than this see it. */
export const PROTOCOL_OUTDATED_MESSAGE = "Coauthor was updated — reload the page to continue.";
