import { AppServer } from "../lib/app-server.ts";
import { freshCredentials } from "../lib/coauthor-client.ts";
import { expect, test } from "../lib/test.ts";

// Sign-in and sign-up are limited per client address, and the address is the one the operator
// says to trust (TRUST_PROXY): by default the socket's, so a made-up X-Forwarded-For per attempt
// does not get a fresh allowance. Each server here allows 3 attempts a minute.
const LIMIT = { AUTH_RATE_LIMIT_PER_MINUTE: "3" };

let counter = 0;
/** A different, made-up address for every call. */
function madeUpAddress(): string {
  counter += 1;
  return `203.0.113.${counter % 250}`;
}

/** POSTs to a Better Auth email endpoint with `headers` and returns the status (a 429 must say why). */
async function authAttempt(
  server: AppServer,
  path: "sign-up" | "sign-in",
  body: { email: string; password: string; name?: string },
  headers: Record<string, string>,
): Promise<number> {
  const response = await fetch(`${server.url}/api/auth/${path}/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, ...headers },
    body: JSON.stringify(body),
  });
  if (response.status === 429) {
    expect(response.headers.get("retry-after")).toBeTruthy();
    expect(await response.json()).toMatchObject({ code: "rate_limited:auth" });
  } else {
    await response.arrayBuffer();
  }
  return response.status;
}

test.describe("without TRUST_PROXY", () => {
  const server = new AppServer(LIMIT);
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    await server.start();
  });
  test.afterAll(() => server.dispose());

  test("the sign-in limit holds against a made-up X-Forwarded-For (and socket header) per attempt", async () => {
    const account = freshCredentials();
    const spoof = () => ({
      "x-forwarded-for": madeUpAddress(),
      "x-coauthor-socket-address": madeUpAddress(),
    });
    const statuses = [
      await authAttempt(server, "sign-up", account, spoof()),
      await authAttempt(server, "sign-in", { ...account, password: "wrong-password" }, spoof()),
      await authAttempt(server, "sign-in", { ...account, password: "wrong-password" }, spoof()),
      await authAttempt(server, "sign-in", { ...account, password: "wrong-password" }, spoof()),
      // Even the right password, from yet another "address": the client is limited.
      await authAttempt(server, "sign-in", account, spoof()),
    ];
    expect(statuses).toEqual([200, 401, 401, 429, 429]);
  });
});

test.describe("with TRUST_PROXY=1", () => {
  const server = new AppServer({ ...LIMIT, TRUST_PROXY: "1" });
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    await server.start();
  });
  test.afterAll(() => server.dispose());

  test("the client address comes from the proxy's X-Forwarded-For: one client is limited, another is not", async () => {
    const account = freshCredentials();
    const blocked = { "x-forwarded-for": "198.51.100.1" };
    // What the client itself wrote (left of the proxy's entry) does not count.
    const blockedWithPrefix = { "x-forwarded-for": `${madeUpAddress()}, 198.51.100.1` };
    const statuses = [
      await authAttempt(server, "sign-up", account, blocked),
      await authAttempt(server, "sign-in", { ...account, password: "wrong-password" }, blocked),
      await authAttempt(server, "sign-in", { ...account, password: "wrong-password" }, blocked),
      await authAttempt(server, "sign-in", account, blockedWithPrefix),
    ];
    expect(statuses).toEqual([200, 401, 401, 429]);
    // Another client behind the same proxy signs in.
    expect(await authAttempt(server, "sign-in", account, { "x-forwarded-for": "198.51.100.2" })).toBe(200);
  });
});
