import { configureRunSignals, log, receiveRunSignal } from "@coauthor/agent-workflow/server";
import { runSignalSchema } from "@coauthor/types";
import postgres from "postgres";
import { DATABASE_LINK_OPTIONS } from "@/server/db/link-options";

// Run signals between instances over PostgreSQL LISTEN/NOTIFY: one listening connection per
// instance, and NOTIFY on the shared database reaches every listener, this instance's own too.
// The payload is a run id and a tool call id (never document text).
const CHANNEL = "coauthor_run_signals";

/** Carries run signals through the shared database (call once at server start). */
export async function startPostgresRunSignals(databaseUrl: string): Promise<void> {
  // max 1: the NOTIFYs share one connection; `listen` opens its own, and reconnects by itself.
  const sql = postgres(databaseUrl, { ...DATABASE_LINK_OPTIONS, max: 1 });
  await sql.listen(CHANNEL, (payload) => {
    const signal = runSignalSchema.safeParse(safeJson(payload));
    if (!signal.success) {
      log.warn("ignored a malformed run signal", { channel: CHANNEL, payload: payload.slice(0, 200) });
      return;
    }
    receiveRunSignal(signal.data);
  });
  // Connected now, so the first signal does not wait for a connection.
  await sql`select 1`;
  configureRunSignals(async (signal) => {
    await sql.notify(CHANNEL, JSON.stringify(signal));
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
