import { env } from "@/env";
import { apiError } from "@/server/http/errors";

/** The benchmark-only routes exist only when COAUTHOR_BENCH=1 (never in a normal deployment). */
export function benchDisabled(): Response | null {
  return env.COAUTHOR_BENCH === "1"
    ? null
    : apiError(404, "not_found:bench", "benchmark routes are disabled");
}
