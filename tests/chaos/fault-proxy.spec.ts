import { connect, createServer, type Server, type Socket } from "node:net";
import { FaultProxy } from "../lib/fault-proxy.ts";
import { expect, test } from "../lib/test.ts";

// The chaos runner's TCP proxy (tests/lib/fault-proxy.ts) against an echo server of its own: it
// passes bytes unchanged, delays them when slow, holds them (and delivers them after) when
// stalled, and resets connections, old and new, when refusing. No app, no services.

let echo: Server;
let proxy: FaultProxy;

test.beforeAll(async () => {
  echo = createServer((socket) => {
    // The proxy resets its connections here on purpose (refuse): the echo side just goes away.
    socket.on("error", () => socket.destroy());
    socket.pipe(socket);
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  const address = echo.address();
  if (address === null || typeof address === "string") throw new Error("no echo port");
  proxy = await FaultProxy.start({ host: "127.0.0.1", port: address.port });
});

test.afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

/** A client of the proxy that collects what comes back and how its connection ended. */
async function client() {
  const socket: Socket = connect(proxy.port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  const seen = { text: "", error: "" };
  socket.on("data", (chunk: Buffer) => {
    seen.text += chunk.toString();
  });
  socket.on("error", (error: NodeJS.ErrnoException) => {
    seen.error = error.code ?? error.message;
  });
  return { socket, seen };
}

test("passes bytes both ways, and adds the delay of a slow link", async () => {
  const { socket, seen } = await client();
  socket.write("hello");
  await expect.poll(() => seen.text).toBe("hello");
  proxy.slow(150);
  const sent = performance.now();
  socket.write(" slow");
  await expect.poll(() => seen.text).toBe("hello slow");
  // Each way waits the delay.
  expect(performance.now() - sent).toBeGreaterThanOrEqual(290);
  proxy.restore();
  socket.destroy();
});

test("a stall holds what is sent, on open and new connections, and delivers it in order when it heals", async () => {
  const open = await client();
  proxy.stall();
  open.socket.write("one ");
  const late = await client();
  late.socket.write("two");
  await new Promise((done) => setTimeout(done, 300));
  expect(open.seen.text).toBe("");
  expect(late.seen.text).toBe("");
  proxy.restore();
  await expect.poll(() => open.seen.text).toBe("one ");
  await expect.poll(() => late.seen.text).toBe("two");
  open.socket.destroy();
  late.socket.destroy();
});

test("refusing resets the open connections and every new one until restored", async () => {
  const open = await client();
  proxy.refuse();
  await expect.poll(() => open.seen.error).toBe("ECONNRESET");
  const refused = connect(proxy.port, "127.0.0.1");
  const error = await new Promise<string>((resolve) =>
    refused.once("error", (failure: NodeJS.ErrnoException) => resolve(failure.code ?? failure.message)),
  );
  expect(error).toBe("ECONNRESET");
  proxy.restore();
  const again = await client();
  again.socket.write("back");
  await expect.poll(() => again.seen.text).toBe("back");
  expect(proxy.openLinks).toBe(1);
  again.socket.destroy();
});
