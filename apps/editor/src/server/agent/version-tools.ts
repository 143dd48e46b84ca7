import type { ServerToolCall } from "@coauthor/agent-workflow/server";
import { isVersionTool, MAX_VERSION_READ_CHARS, versionToolSchemas } from "@coauthor/types";
import type { ToolFailure } from "@coauthor/types/tools";
import { roleAllows } from "@/server/auth/roles";
import { StateLoadError } from "@/server/collab/document-health";
import { DocumentWorkTooSlow } from "@/server/document-work/worker-pool";
import { findDocumentAccess } from "@/server/documents";
import { findRun } from "@/server/runs";
import { listVersions, versionContent } from "@/server/versions";

// The agent's version tools, run by the server for a run: it reads the document's versions with
// its writer's rights at the time of the call (any role that may open the document may read them).
// Read-only: restoring a version stays a writer's decision (the Versions view).

function failure(code: string, message: string): ToolFailure {
  return { ok: false, code, message };
}

/** Runs one version tool call; every refusal is a failure the model can read, never a throw. */
export async function runVersionTool(call: ServerToolCall): Promise<unknown> {
  if (!isVersionTool(call.toolName))
    return failure("unknown-tool", `no version tool named "${call.toolName}"`);
  const run = await findRun(call.runId);
  if (run === null) return failure("internal-error", "this run is not stored");
  const access = await findDocumentAccess(run.userId, run.documentId);
  if (access === null || !roleAllows(access.role, "read"))
    return failure("invalid-input", "the writer of this run may no longer open this document");
  if (call.toolName === "listVersions") {
    const input = versionToolSchemas.listVersions.input.safeParse(call.input);
    if (!input.success)
      return failure("invalid-input", input.error.issues.map((issue) => issue.message).join("; "));
    const versions = await listVersions(run.documentId);
    return {
      ok: true,
      versions: versions.slice(0, input.data.limit).map((version) => ({
        versionId: version.id,
        label: version.label,
        at: version.createdAt.toISOString(),
        by: version.createdBy,
        runsSince: version.runs.map((run) => ({ runId: run.runId, prompt: run.prompt, for: run.writer })),
        editedBy: version.editedBy,
      })),
    };
  }
  const input = versionToolSchemas.readVersion.input.safeParse(call.input);
  if (!input.success)
    return failure("invalid-input", input.error.issues.map((issue) => issue.message).join("; "));
  const { versionId } = input.data;
  let version: Awaited<ReturnType<typeof versionContent>>;
  try {
    version = await versionContent(run.documentId, versionId);
  } catch (error) {
    if (error instanceof DocumentWorkTooSlow)
      return failure("internal-error", "this version is too large to read within the time limit");
    if (error instanceof StateLoadError) return failure("internal-error", "this version does not load");
    throw error;
  }
  if (version === null)
    return failure("not-found", `no version ${versionId} of this document (see listVersions)`);
  return {
    ok: true,
    versionId,
    label: version.label,
    markdown: version.markdown.slice(0, MAX_VERSION_READ_CHARS),
    truncated: version.markdown.length > MAX_VERSION_READ_CHARS,
  };
}
