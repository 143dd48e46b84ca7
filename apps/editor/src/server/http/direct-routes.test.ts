import { Agent, createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { nodeRouteHandler, type RouteHandler } from "./direct-routes";
import { readJsonBody } from "./errors";
import { NON_DOCUMENT_POLICY } from "./security-headers";

// A direct route runs on a real Node server here, as server.mjs runs it.

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Serves `handler` as a direct route; returns the server's base URL. */
async function serve(handler: RouteHandler): Promise<string> {
  const route = nodeRouteHandler("POST /route", handler);
  server = createServer((incoming, outgoing) => void route(incoming, outgoing));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Serves a route that waits until its client goes away, then gives what `afterLeaving` makes of the
 * request; the client sends a body (all of it, or only a first part: `bodyEnds`) and leaves once
 * the route has its request. Resolves with that outcome (or a note, when the route still waits
 * after 2 s) and the error the client's own request ended with.
 */
async function clientLeaves<T>(
  afterLeaving: (request: Request) => Promise<T>,
  { bodyEnds }: { bodyEnds: boolean },
): Promise<{ outcome: T | string; hangUp: unknown }> {
  let outcome!: Promise<T>;
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const base = await serve(async (request) => {
    const left = new Promise<void>((resolve) =>
      request.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    outcome = left.then(() => afterLeaving(request));
    arrived();
    await outcome;
    return new Response(null, { status: 204 });
  });
  const client = httpRequest(`${base}/route`, { method: "POST", headers: { "content-type": "text/plain" } });
  // Destroyed on purpose below: its "socket hang up" is expected.
  const hungUp = new Promise((resolve) => client.once("error", resolve));
  if (bodyEnds) client.end("{}");
  else client.write("the first part of a body that never ends");
  await arrival;
  client.destroy();
  const stillWaiting = new Promise<string>((resolve) =>
    setTimeout(() => resolve("still waiting after 2 s"), 2_000),
  );
  return { outcome: await Promise.race([outcome, stillWaiting]), hangUp: await hungUp };
}

describe("a direct route", () => {
  it("gets the request's method, path, headers and body, and answers with its status, headers and cookies", async () => {
    const base = await serve(async (request) => {
      const url = new URL(request.url);
      const echoed = {
        method: request.method,
        path: `${url.pathname}${url.search}`,
        tag: request.headers.get("x-tag"),
        body: await request.text(),
      };
      const headers = new Headers({ "x-answer": "yes" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/");
      return Response.json(echoed, { status: 201, headers });
    });
    const response = await fetch(`${base}/route?x=1`, {
      method: "POST",
      headers: { "x-tag": "tagged", "content-type": "text/plain" },
      body: "ünïcode body",
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      method: "POST",
      path: "/route?x=1",
      tag: "tagged",
      body: "ünïcode body",
    });
    expect(response.headers.get("x-answer")).toBe("yes");
    expect(response.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("carries the headers every API answer carries, a body-less answer too", async () => {
    const base = await serve(async () => new Response(null, { status: 204 }));
    const response = await fetch(`${base}/route`, { method: "POST", body: "{}" });
    expect(response.status).toBe(204);
    expect(response.headers.get("content-security-policy")).toBe(NON_DOCUMENT_POLICY);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(response.headers.get("permissions-policy")).toContain("camera=()");
  });

  it("streams its body to the route, which can refuse it past a bound without reading it all", async () => {
    const base = await serve(async (request) => {
      // As a route does before it reads a body (the session, a rate limit): the client sends on meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const body = await readJsonBody(request, "route", 1024);
      return body.ok ? Response.json(body.value) : body.response;
    });
    const post = (body: string) =>
      fetch(`${base}/route`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const small = await post(JSON.stringify({ a: [1, 2, 3] }));
    expect(await small.json()).toEqual({ a: [1, 2, 3] });
    // Refused on its declared length, unread: the client still gets the answer, not a reset.
    const declared = await post(JSON.stringify({ a: "x".repeat(4 * 1024 * 1024) }));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: "payload_too_large:route" });
  });

  it("drops a body the route stopped reading, and the connection serves the next request", async () => {
    const base = await serve(async (request) => {
      const body = await readJsonBody(request, "route", 1024);
      return body.ok ? Response.json(body.value) : body.response;
    });
    // One connection, kept alive: the second request goes on the socket of the first only if the
    // first one's body was read to its end (a body left unread would hold or reset it).
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (chunks: string[]) =>
      new Promise<{ status: number; text: string; reused: boolean }>((resolve, reject) => {
        const sent = httpRequest(
          `${base}/route`,
          { method: "POST", agent, headers: { "content-type": "application/json" } },
          (answer) => {
            let text = "";
            answer.setEncoding("utf8");
            answer.on("data", (chunk: string) => {
              text += chunk;
            });
            answer.on("end", () =>
              resolve({ status: answer.statusCode ?? 0, text, reused: sent.reusedSocket }),
            );
          },
        );
        sent.on("error", reject);
        for (const chunk of chunks) sent.write(chunk);
        sent.end();
      });
    try {
      // Sent in chunks without a length: read up to the bound, then refused.
      const refused = await post(Array.from({ length: 64 }, () => "x".repeat(16 * 1024)));
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.text)).toMatchObject({ code: "payload_too_large:route" });
      const next = await post(["[1]"]);
      expect(next).toEqual({ status: 200, text: "[1]", reused: true });
    } finally {
      agent.destroy();
    }
  });

  it("fails the route's read of a body whose client went away before sending it all", async () => {
    // As a route that checks the session first: the client leaves meanwhile, mid-body.
    const left = await clientLeaves(
      (request) =>
        request.text().then(
          () => "read",
          (error: Error) => `failed: ${error.name}`,
        ),
      { bodyEnds: false },
    );
    expect(left.outcome).toBe("failed: ResponseAborted");
    expect(left.hangUp).toMatchObject({ message: "socket hang up" });
  });

  it("answers a 500 that names no cause when its handler throws, and logs the cause", async () => {
    const logged = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const base = await serve(async () => {
      throw new Error("secret internal detail");
    });
    const response = await fetch(`${base}/route`, { method: "POST", body: "{}" });
    const text = await response.text();
    const lines = logged.mock.calls.map(([line]) => String(line));
    logged.mockRestore();
    expect(response.status).toBe(500);
    expect(JSON.parse(text)).toEqual({
      code: "internal_error:server",
      message: "the server could not answer this request",
    });
    expect(text).not.toContain("secret internal detail");
    expect(
      lines.some((line) => line.includes("secret internal detail") && line.includes("POST /route")),
    ).toBe(true);
  });

  it("aborts the request's signal when the client goes away before the answer", async () => {
    const left = await clientLeaves(async (request) => request.signal.reason, { bodyEnds: true });
    expect(left.outcome).toBeDefined();
    expect(left.outcome).toMatchObject({ name: "ResponseAborted" });
    expect(left.hangUp).toMatchObject({ message: "socket hang up" });
  });
});
