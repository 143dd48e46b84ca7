import { INVALID_CONTENT } from "@coauthor/types";
import { HocuspocusProvider, HocuspocusProviderWebsocket, WebSocketStatus } from "@hocuspocus/provider";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as Y from "yjs";
import { describeSyncState, type SyncState, watchSyncState } from "./sync-state";

// A provider that never connects: the server's words are fed to it as its socket would deliver them.
const providers: HocuspocusProvider[] = [];
function watchedProvider({ synced = true } = {}) {
  const socket = new HocuspocusProviderWebsocket({ url: "ws://127.0.0.1:9/collab", autoConnect: false });
  const provider = new HocuspocusProvider({ websocketProvider: socket, name: "doc", document: new Y.Doc() });
  providers.push(provider);
  const states: SyncState[] = [];
  watchSyncState(provider, (state) => states.push(state));
  if (synced) {
    provider.forwardStatus({ status: WebSocketStatus.Connected });
    provider.synced = true;
  }
  return { provider, current: () => states.at(-1) };
}

afterEach(() => {
  for (const provider of providers.splice(0)) provider.destroy();
  vi.unstubAllGlobals();
});

describe("the save indicator", () => {
  it("leaves Saved while the server cannot store this copy's changes, and comes back when it has", () => {
    const { provider, current } = watchedProvider();
    expect(current()).toBe("synced");
    provider.receiveStateless(JSON.stringify({ type: "save-status", stored: false }));
    expect(current()).toBe("unsaved");
    expect(describeSyncState("unsaved")).toBe("Not saved — retrying");
    // Other stateless messages say nothing about saving.
    provider.receiveStateless("not json");
    provider.receiveStateless(JSON.stringify({ type: "something-else" }));
    expect(current()).toBe("unsaved");
    provider.receiveStateless(JSON.stringify({ type: "save-status", stored: true }));
    expect(current()).toBe("synced");
  });

  it("shows a copy whose change the server refused as not saved, for good (no reconnect makes it Saved)", () => {
    const { provider, current } = watchedProvider();
    provider.forwardClose({ event: { code: 1000, reason: INVALID_CONTENT } });
    expect(current()).toBe("rejected");
    provider.forwardStatus({ status: WebSocketStatus.Connected });
    provider.synced = true;
    expect(current()).toBe("rejected");
    expect(describeSyncState("rejected")).toMatch(/^Not saved: .*reload/);
  });

  it("says Offline, not Connecting, when the network goes before a first sync finished", () => {
    const { provider, current } = watchedProvider({ synced: false });
    provider.forwardStatus({ status: WebSocketStatus.Connecting });
    expect(current()).toBe("connecting");
    vi.stubGlobal("navigator", { onLine: false });
    // The socket retries: its next status report says what the browser says.
    provider.forwardStatus({ status: WebSocketStatus.Connecting });
    expect(current()).toBe("offline");
    vi.stubGlobal("navigator", { onLine: true });
    provider.forwardStatus({ status: WebSocketStatus.Connecting });
    expect(current()).toBe("connecting");
  });

  it("says Offline, not Saving, while the network is gone though the socket still looks connected", () => {
    // A WebSocket notices a lost network only when a heartbeat goes unanswered, seconds later.
    const { provider, current } = watchedProvider();
    provider.incrementUnsyncedChanges();
    expect(current()).toBe("syncing");
    vi.stubGlobal("navigator", { onLine: false });
    provider.forwardStatus({ status: WebSocketStatus.Connected });
    expect(current()).toBe("offline");
    vi.stubGlobal("navigator", { onLine: true });
    provider.forwardStatus({ status: WebSocketStatus.Connected });
    expect(current()).toBe("syncing");
  });
});
