import { getDb } from "@/server/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Liveness + storage check: 200 once the database is open and migrated. */
export async function GET(): Promise<Response> {
  await getDb();
  return Response.json({ ok: true });
}
