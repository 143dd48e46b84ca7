import * as Y from "yjs";

// Which root types of a document a Yjs update writes to: the items it adds and the items it
// deletes, each followed up to its root type ("root" is the text; "comments" the threads; …). The
// sync server's door refuses a copy's update that writes to a root only the server writes, so no
// copy can forge, edit or delete a comment through the socket.
//
// Cost: one decode, then per struct a walk up its parents through the update (binary search) and
// into the document (the first document item found ends it) — never a walk of the document.

/** Where an update's item or deletion lands: a root type's name, or "unknown" (nobody has its parent yet). */
type Root = string | "unknown";

/** An update's new items by client, sorted by clock (as Yjs encodes them). */
class NewItems {
  private readonly byClient = new Map<number, Y.Item[]>();
  /**
   * Its collected structs (deleted content a copy no longer keeps, sent as GC) by client: they
   * hold their ids as much as items do, for the deletions that name them.
   */
  private readonly collected = new Map<number, Y.GC[]>();
  readonly size: number;

  constructor(structs: ReadonlyArray<Y.Item | Y.GC | Y.Skip>) {
    let size = 0;
    for (const struct of structs) {
      if (struct instanceof Y.GC) {
        const list = this.collected.get(struct.id.client) ?? [];
        list.push(struct);
        this.collected.set(struct.id.client, list);
        continue;
      }
      if (!(struct instanceof Y.Item)) continue;
      size += 1;
      const list = this.byClient.get(struct.id.client) ?? [];
      list.push(struct);
      this.byClient.set(struct.id.client, list);
    }
    for (const list of [...this.byClient.values(), ...this.collected.values()])
      list.sort((a, b) => a.id.clock - b.id.clock);
    this.size = size;
  }

  /** The struct of the update (an item, or a collected one) holding `id`, or null. */
  holding(id: Y.ID): Y.Item | Y.GC | null {
    return this.find(id) ?? holdingIn(this.collected.get(id.client), id.clock);
  }

  all(): Y.Item[] {
    return [...this.byClient.values()].flat();
  }

  /** The new item holding clock `id.clock` of `id.client`, or null. */
  find(id: Y.ID): Y.Item | null {
    return holdingIn(this.byClient.get(id.client), id.clock);
  }
}

/** The struct of `list` (one client's, sorted by clock) holding `clock`, or null. */
function holdingIn<Struct extends Y.Item | Y.GC>(list: Struct[] | undefined, clock: number): Struct | null {
  if (list === undefined) return null;
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const struct = list[middle] as Struct;
    if (clock < struct.id.clock) high = middle - 1;
    else if (clock >= struct.id.clock + struct.length) low = middle + 1;
    else return struct;
  }
  return null;
}

/** The document's struct holding `id`, or null when the document does not have it yet. */
function documentStruct(store: Y.Doc["store"], id: Y.ID): Y.Item | Y.GC | null {
  if (id.clock >= Y.getState(store, id.client)) return null;
  const structs = store.clients.get(id.client);
  if (structs === undefined) return null;
  return structs[Y.findIndexSS(structs, id.clock)] as Y.Item | Y.GC;
}

/** The name of the root type `type` sits under. */
function rootNameOf(type: Y.AbstractType<unknown>): Root {
  let current = type;
  for (let parent = current._item?.parent; parent instanceof Y.AbstractType; parent = current._item?.parent) {
    current = parent;
  }
  return current._item === null ? Y.findRootTypeKey(current) : "unknown";
}

/** The root of a document item's parent (a GC'd struct has none: Yjs drops what it held). */
function rootOfDocumentStruct(struct: Y.Item | Y.GC): Root {
  if (!(struct instanceof Y.Item)) return "unknown";
  const parent: unknown = struct.parent;
  return parent instanceof Y.AbstractType ? rootNameOf(parent) : "unknown";
}

/**
 * The root a new item goes under: its parent's (a root's name, an item of the update or of the
 * document holding the parent type), or, when the encoding leaves the parent out, its neighbour's.
 */
function rootOfNewItem(item: Y.Item, added: NewItems, store: Y.Doc["store"] | null): Root {
  let current = item;
  // Each step moves to another item; a cycle (forged) cannot go on longer than the update.
  for (let steps = 0; steps <= added.size; steps++) {
    const parent: unknown = current.parent;
    if (typeof parent === "string") return parent;
    const next = parent instanceof Y.ID ? parent : (current.origin ?? current.rightOrigin);
    if (next === null) return "unknown";
    // A new parent item (or neighbour) sits under the same root as this one: follow it.
    const inUpdate = added.find(next);
    if (inUpdate !== null) {
      current = inUpdate;
      continue;
    }
    const inDocument = store === null ? null : documentStruct(store, next);
    if (inDocument === null) return "unknown";
    if (parent instanceof Y.ID) {
      const type = inDocument instanceof Y.Item && inDocument.content instanceof Y.ContentType;
      return type ? rootNameOf((inDocument.content as Y.ContentType).type) : "unknown";
    }
    return rootOfDocumentStruct(inDocument);
  }
  return "unknown";
}

/**
 * The root types `update` would write to if `doc` took it: where its new items go and where the
 * document items it deletes are. Items already in the document, and deletions of items already
 * deleted, write nothing. A deletion of items nobody has yet writes nothing either: a copy
 * catching up a server restarted from lagging storage sends such deletions legitimately, and no
 * copy can name the server's next writes in advance (each server edit is made on a fresh copy
 * with a random Yjs client id — live-edit.ts). Throws when `update` is not a Yjs update.
 */
export function rootsWrittenBy(update: Uint8Array, doc: Y.Doc | null): Set<string> {
  const { structs, ds } = Y.decodeUpdate(update);
  const store = doc?.store ?? null;
  const added = new NewItems(structs);
  const roots = new Set<string>();
  for (const item of added.all()) {
    if (store !== null && item.id.clock + item.length <= Y.getState(store, item.id.client)) continue;
    const root = rootOfNewItem(item, added, store);
    if (root !== "unknown") roots.add(root);
  }
  for (const [client, ranges] of ds.clients) {
    for (const range of ranges) {
      for (let clock = range.clock; clock < range.clock + range.len; ) {
        const id = Y.createID(client, clock);
        const inDocument = store === null ? null : documentStruct(store, id);
        const struct = inDocument ?? added.holding(id);
        if (struct === null) break;
        if (inDocument !== null && !(inDocument instanceof Y.Item && inDocument.deleted)) {
          const root = rootOfDocumentStruct(inDocument);
          if (root !== "unknown") roots.add(root);
        }
        clock = struct.id.clock + struct.length;
      }
    }
  }
  return roots;
}
