import type { AppServer } from "../lib/app-server.ts";
import { freshCredentials } from "../lib/coauthor-client.ts";
import { type Instances, startInstances } from "../lib/instances.ts";
import { expect, test } from "../lib/test.ts";

// Deployments that share one Redis, each on a database of its own: REDIS_NAMESPACE keeps their
// counters apart. A third deployment given the first one's namespace shares its counters, so it is
// the namespace, not the database, that keeps them apart. Sign-in is limited per client address,
// and every client here is 127.0.0.1: the collision a shared Redis would otherwise cause.
const LIMIT = { AUTH_RATE_LIMIT_PER_MINUTE: "2" };
let deployments: Instances[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const first = await startInstances({ label: "ns", count: 1, env: LIMIT });
  deployments = [first];
  deployments.push(
    ...(await Promise.all([
      startInstances({ label: "ns", count: 1, env: LIMIT }),
      startInstances({ label: "ns", count: 1, env: { ...LIMIT, REDIS_NAMESPACE: first.redisNamespace } }),
    ])),
  );
});

test.afterAll(async () => {
  for (const deployment of deployments) await deployment.dispose();
});

/** A wrong-password sign-in on `server`: its status (401, or 429 once the address is limited). */
async function wrongSignIn(server: AppServer): Promise<number> {
  const response = await fetch(`${server.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ ...freshCredentials(), password: "wrong-password" }),
  });
  await response.arrayBuffer();
  return response.status;
}

test("a deployment's rate limits count in its own namespace of a shared Redis", async () => {
  const [first, other, sameNamespace] = deployments.map((deployment) => deployment.servers[0]) as [
    AppServer,
    AppServer,
    AppServer,
  ];
  expect(deployments[1]?.redisNamespace).not.toBe(deployments[0]?.redisNamespace);
  expect([await wrongSignIn(first), await wrongSignIn(first), await wrongSignIn(first)]).toEqual([
    401, 401, 429,
  ]);
  // Another namespace: a fresh allowance for the same address.
  expect(await wrongSignIn(other)).toBe(401);
  // The first deployment's namespace, on another database: its counter, used up.
  expect(await wrongSignIn(sameNamespace)).toBe(429);
});
