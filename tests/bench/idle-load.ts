// What idle instances cost their database: transactions a second on the instances' own database
// while nobody uses them (the job queue's polling, leases, sweeps). PostgreSQL counts them in
// pg_stat_database; a slot of the world's job queue polls on its own (see
// WORKFLOW_POSTGRES_WORKER_CONCURRENCY in docs/configuration.md).
import postgres from "postgres";
import { z } from "zod";
import { round } from "./stats.ts";

const countSchema = z.object({ transactions: z.coerce.number() });

/** Transactions a second on `databaseUrl`'s database over `windowMs`, after `settleMs` of quiet. */
export async function idleTransactionsPerSecond(databaseUrl: string, settleMs = 3_000, windowMs = 5_000) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  try {
    const read = async () => {
      const [row] = await sql`
        select xact_commit + xact_rollback as transactions
        from pg_stat_database where datname = current_database()`;
      return countSchema.parse(row).transactions;
    };
    await new Promise((quiet) => setTimeout(quiet, settleMs));
    const before = await read();
    const started = performance.now();
    await new Promise((measured) => setTimeout(measured, windowMs));
    const after = await read();
    // The two reads are transactions of their own: not the instances'.
    return round((after - before - 1) / ((performance.now() - started) / 1000));
  } finally {
    await sql.end();
  }
}
