import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { purgeLocalWorldRuns } from "./local-world-purge";

const GONE = "wrun_01M859RZ18GSGXFTNWWTCNBPKW";
const KEPT = "wrun_01M859RZ8W0D62FQM3A6JC6MF1";
const ulid = (runId: string) => runId.slice("wrun_".length);
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** The files the local world writes for one run (the layout of @workflow/world-local 4.4). */
function runFiles(runId: string): Record<string, string> {
  const stream = `strm_${ulid(runId)}_user`;
  return {
    [`runs/${runId}.json`]: JSON.stringify({ runId, input: "secret text" }),
    [`events/${runId}-evnt_01.json`]: "{}",
    [`steps/${runId}-step_01.json`]: "{}",
    [`waits/${runId}-wait_01.json`]: "{}",
    [`.locks/steps/${runId}-step_01.terminal`]: "",
    [`hooks/hook_${ulid(runId)}.json`]: JSON.stringify({ runId, token: `token-${runId}` }),
    [`hooks/tokens/${sha(`token-${runId}`)}.json`]: "{}",
    [`streams/runs/${runId}.json`]: JSON.stringify({ streams: [stream] }),
    [`streams/chunks/${stream}-chnk_01.bin`]: "frame",
    // Written by a step after the run's stream list was removed: found by the run's ULID.
    [`streams/chunks/strm_${ulid(runId)}_late-chnk_02.bin`]: "late frame",
  };
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

let folder = "";
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe("purgeLocalWorldRuns", () => {
  it("removes every file of the purged run and none of another run's", async () => {
    folder = mkdtempSync(join(tmpdir(), "coauthor-world-purge-"));
    for (const [path, content] of Object.entries({ ...runFiles(GONE), ...runFiles(KEPT) })) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), content);
    }
    await purgeLocalWorldRuns(folder, [GONE]);
    expect(listFiles(folder)).toEqual(Object.keys(runFiles(KEPT)).sort());
  });

  it("engine-state only: removes the run's events, steps, waits, hooks and locks, keeps its run file and streams", async () => {
    folder = mkdtempSync(join(tmpdir(), "coauthor-world-purge-"));
    for (const [path, content] of Object.entries({ ...runFiles(GONE), ...runFiles(KEPT) })) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), content);
    }
    await purgeLocalWorldRuns(folder, [GONE], "engine-state");
    const log = Object.keys(runFiles(GONE)).filter((path) => /^(runs|streams)\//.test(path));
    expect(log).toHaveLength(4);
    expect(listFiles(folder)).toEqual([...Object.keys(runFiles(KEPT)), ...log].sort());
  });

  it("is idempotent: purging a run that is gone, or a folder the world never made, succeeds", async () => {
    folder = mkdtempSync(join(tmpdir(), "coauthor-world-purge-"));
    await purgeLocalWorldRuns(folder, [GONE]);
    await purgeLocalWorldRuns(join(folder, "missing"), [GONE]);
    expect(listFiles(folder)).toEqual([]);
  });
});
