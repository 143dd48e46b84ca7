// Makes sure a Chromium for the end-to-end tests is on the machine. Playwright's
// own browser download cannot work here (only the npm registry and Debian's
// packages are reachable), so we use Debian's chromium package.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const sudo = isRoot ? [] : ["sudo", "-n"];
const apt = (args) =>
  spawnSync(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(isRoot ? [] : ["apt-get"]), ...args], {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
console.log(`[coauthor] ${path} not found: installing Debian's chromium package`);
if (
  apt(["update"]).status !== 0 ||
  apt(["install", "-y", "--no-install-recommends", "chromium"]).status !== 0 ||
  !existsSync(path)
) {
  console.error(
    `[coauthor] could not install Chromium. Install it (apt-get install chromium) or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}
