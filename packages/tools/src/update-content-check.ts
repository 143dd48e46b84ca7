import { hasForbiddenControl, MAX_NESTING_DEPTH } from "@coauthor/types";
import * as Y from "yjs";
import { editorNodes } from "./editor-nodes.ts";

// The content rule (packages/types/src/content-rule.ts) applied to a Yjs update before it reaches a
// document: the sync server's door. Pure reading of Yjs structures (no Lexical editor, no binding),
// so it sits apart from yjs-document.ts, which builds editors bound to documents.
//
// Cost: one decode of the update, then work proportional to its structs times the nesting depth
// of the places they go; never a walk of the document (a keystroke must stay cheap in a long one).

/** Node types a document may hold: the editor's nodes and Lexical's own. */
const KNOWN_NODE_TYPES: ReadonlySet<string> = new Set([
  "root",
  "paragraph",
  "text",
  "linebreak",
  "tab",
  ...editorNodes.map((node) => node.getType()),
]);

/**
 * Deepest chain of nested shared types of any kind (Lexical's v1 binding keeps a text node, a node's
 * state and named slots in maps between element levels; a document of MAX_NESTING_DEPTH element
 * levels needs at most two more). A chain of bare maps this deep is still far from what the
 * recursive Yjs and Lexical code overflows on.
 */
export const MAX_SHARED_TYPE_DEPTH = 2 * MAX_NESTING_DEPTH;

/** How an update breaks the content rule (`detail` is for the log, never for the client). */
export type ContentViolation = {
  rule: "unknown-node-type" | "forbidden-control" | "nesting-depth" | "malformed";
  detail: string;
  /**
   * True when the offending content is in the document's pending structs (an earlier update still
   * waiting for an item it refers to), which this update would let Yjs integrate, and not in the
   * update itself: the update is fine, the pending structs are not.
   */
  inPending: boolean;
};

/**
 * The node types a Yjs update would add that the editor does not know. The binding stores each
 * node's type under the key `__type`; a node of an unknown type would make the document
 * unloadable in every copy (Lexical cannot build it). Throws when `update` is not a Yjs update.
 */
export function unknownNodeTypes(update: Uint8Array): string[] {
  const unknown = new Set<string>();
  for (const struct of Y.decodeUpdate(update).structs) {
    if (struct instanceof Y.Item) for (const type of unknownTypesOf(struct)) unknown.add(type);
  }
  return [...unknown];
}

function unknownTypesOf(item: Y.Item): string[] {
  if (item.parentSub !== "__type") return [];
  return item.content
    .getContent()
    .filter((value) => typeof value !== "string" || !KNOWN_NODE_TYPES.has(value))
    .map((value) => String(value).slice(0, 80));
}

/** Where a forbidden control hides in a JSON-like value (strings and object keys, at any depth), or null. */
function controlInValue(value: unknown): string | null {
  // Most values are a primitive or a list of primitives (Lexical's node properties): no stack for them.
  if (typeof value !== "object" || value === null) {
    return typeof value === "string" && hasForbiddenControl(value) ? "a string value" : null;
  }
  const stack: unknown[] = [value];
  for (let next = stack.pop(); stack.length > 0 || next !== undefined; next = stack.pop()) {
    if (typeof next === "string") {
      if (hasForbiddenControl(next)) return "a string value";
    } else if (Array.isArray(next)) {
      for (const element of next) stack.push(element);
    } else if (typeof next === "object" && next !== null && !(next instanceof Uint8Array)) {
      for (const [key, element] of Object.entries(next)) {
        if (hasForbiddenControl(key)) return "an object key";
        stack.push(element);
      }
    }
  }
  return null;
}

/** Where an item's strings (content, map key, root name, type names) hold a forbidden control, or null. */
function controlInItem(item: Y.Item): string | null {
  if (item.parentSub !== null && hasForbiddenControl(item.parentSub)) return "a map key";
  const parent: unknown = item.parent;
  if (typeof parent === "string" && hasForbiddenControl(parent)) return "a root type name";
  const { content } = item;
  if (content instanceof Y.ContentString) return hasForbiddenControl(content.str) ? "text" : null;
  if (content instanceof Y.ContentAny || content instanceof Y.ContentJSON) {
    for (const value of content.arr) {
      const found = controlInValue(value);
      if (found !== null) return found;
    }
    return null;
  }
  if (content instanceof Y.ContentFormat) {
    return hasForbiddenControl(content.key) ? "a format key" : controlInValue(content.value);
  }
  if (content instanceof Y.ContentEmbed) return controlInValue(content.embed);
  if (content instanceof Y.ContentDoc) {
    return hasForbiddenControl(content.doc.guid) ? "a subdocument id" : controlInValue(content.opts);
  }
  if (content instanceof Y.ContentType) {
    const { type } = content;
    if (type instanceof Y.XmlElement && hasForbiddenControl(type.nodeName)) return "an element name";
    if (type instanceof Y.XmlHook && hasForbiddenControl(type.hookName)) return "a hook name";
  }
  return null;
}

/** An update that Yjs decodes but that no Yjs client writes (cycles, a client's structs in pieces). */
class MalformedUpdate extends Error {}

/** Element levels (Lexical element nodes are `Y.XmlText`) and shared types of any kind, from the top down to a type. */
type Depth = { elements: number; types: number };

/**
 * A type's depth, or "dropped" when Yjs will not keep it. Below an item nobody here holds (Yjs keeps
 * such structs pending until it arrives) the depth counts from that missing anchor: a lower bound,
 * enough to refuse a chain that is too deep wherever it ends up hanging.
 */
type Placement = { depth: Depth; anchored: boolean } | "dropped";

/** The type an item goes into. */
type Parent =
  /** A type that new structs (the update, or the pending structs) create, held by `holder`. */
  | { kind: "new"; holder: Y.Item; type: Y.AbstractType<unknown> }
  | { kind: "document"; type: Y.AbstractType<unknown> }
  | { kind: "top-level" }
  /** Refers to an item that neither the new structs nor the document hold: Yjs keeps it pending. */
  | { kind: "unresolved" }
  /** A garbage-collected neighbour, or a "parent" that is not a type: Yjs drops its content. */
  | { kind: "dropped" };

const TOP_LEVEL: Parent = { kind: "top-level" };
const UNRESOLVED: Parent = { kind: "unresolved" };
const DROPPED: Parent = { kind: "dropped" };
const ROOT_DEPTH: Depth = { elements: 0, types: 0 };

/** The depth of `type` when its parent is at `parent` (a root type, `_item` null, is level 0). */
function childDepth(parent: Depth, type: Y.AbstractType<unknown>): Depth {
  return { elements: parent.elements + (type instanceof Y.XmlText ? 1 : 0), types: parent.types + 1 };
}

type Struct = Y.Item | Y.GC | Y.Skip;

/** The structs of one update, per client, found by id with a binary search. */
class NewStructs {
  readonly items: Y.Item[] = [];
  private readonly runs = new Map<number, Struct[]>();

  /** Throws when `update` is not a Yjs update (`v2`: in Yjs' second encoding, as its pending structs are). */
  constructor(update: Uint8Array, v2 = false) {
    for (const struct of (v2 ? Y.decodeUpdateV2 : Y.decodeUpdate)(update).structs) {
      const run = this.runs.get(struct.id.client);
      const last = run?.at(-1);
      if (run === undefined) this.runs.set(struct.id.client, [struct]);
      // Yjs writes each client's structs as one run without gaps (Skip fills them); a client listed
      // twice would be read by Yjs as its last run only, so this check would see other structs.
      else if (last !== undefined && last.id.clock + last.length === struct.id.clock) run.push(struct);
      else throw new MalformedUpdate(`client ${struct.id.client}'s structs are not one run`);
      if (struct instanceof Y.Item) this.items.push(struct);
    }
  }

  /** The struct holding `id`, or undefined when these structs do not hold it. */
  find(id: Y.ID): Y.Item | Y.GC | undefined {
    const run = this.runs.get(id.client);
    if (run === undefined) return undefined;
    let low = 0;
    let high = run.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const struct = run[middle] as Struct;
      if (id.clock < struct.id.clock) high = middle - 1;
      else if (id.clock >= struct.id.clock + struct.length) low = middle + 1;
      else return struct instanceof Y.Skip ? undefined : struct;
    }
    return undefined;
  }
}

/**
 * Where new structs go and how deep, resolved through the new structs themselves and the live
 * document (memoized per check). Every walk is a loop: the input is untrusted and may nest far
 * deeper than recursion allows.
 */
class Placements {
  private readonly parents = new Map<Y.Item, Parent>();
  private readonly holderDepths = new Map<Y.Item, Placement>();
  private readonly documentDepths = new Map<Y.AbstractType<unknown>, Depth>();

  private readonly sources: NewStructs[];
  private readonly store: Y.Doc["store"] | null;
  /** How many items the new structs hold: no walk through them is longer, unless it is a cycle. */
  private readonly newItems: number;

  constructor(sources: NewStructs[], store: Y.Doc["store"] | null) {
    this.sources = sources;
    this.store = store;
    this.newItems = sources.reduce((sum, source) => sum + source.items.length, 0);
  }

  /** Whether the document already holds every clock of `item` (a struct sent again adds nothing). */
  inDocument(item: Y.Item): boolean {
    return this.store !== null && item.id.clock + item.length <= Y.getState(this.store, item.id.client);
  }

  private find(id: Y.ID): { struct: Y.Item | Y.GC; isNew: boolean } | undefined {
    // The document first: for a struct sent again, the one Yjs placed already is the truth.
    if (this.store !== null && id.clock < Y.getState(this.store, id.client)) {
      // getItem answers whichever struct holds the clock, a GC one too (its declared type says Item).
      const struct: Y.Item | Y.GC = Y.getItem(this.store, id);
      return { struct, isNew: false };
    }
    for (const source of this.sources) {
      const struct = source.find(id);
      if (struct !== undefined) return { struct, isNew: true };
    }
    return undefined;
  }

  /** The type held by the struct at `id`, as a parent. */
  private typeAt(id: Y.ID): Parent {
    const found = this.find(id);
    if (found === undefined) return UNRESOLVED;
    const { struct, isNew } = found;
    if (struct instanceof Y.GC || !(struct.content instanceof Y.ContentType)) return DROPPED;
    const { type } = struct.content;
    return isNew ? { kind: "new", holder: struct, type } : { kind: "document", type };
  }

  /**
   * The type a new item goes into. An item inserted next to another (its origin, else its right
   * origin) carries no parent of its own: Yjs gives it the neighbour's, so runs of siblings are
   * followed to the first one that names its parent.
   */
  parentOf(item: Y.Item): Parent {
    const path: Y.Item[] = [];
    let parent: Parent | undefined;
    for (let current = item; parent === undefined; ) {
      parent = this.parents.get(current);
      if (parent !== undefined) break;
      // A walk longer than there are new items went round a cycle.
      if (path.length > this.newItems) throw new MalformedUpdate("items whose neighbours form a cycle");
      path.push(current);
      const declared: unknown = current.parent;
      if (typeof declared === "string") {
        parent = TOP_LEVEL;
      } else if (declared instanceof Y.ID) {
        parent = this.typeAt(declared);
      } else {
        const neighbourId = current.origin ?? current.rightOrigin;
        if (neighbourId === null) throw new MalformedUpdate("an item with neither a parent nor a neighbour");
        const found = this.find(neighbourId);
        if (found === undefined) parent = UNRESOLVED;
        else if (found.struct instanceof Y.GC) parent = DROPPED;
        else if (found.isNew) current = found.struct;
        else {
          const type: unknown = found.struct.parent;
          parent = type instanceof Y.AbstractType ? { kind: "document", type } : DROPPED;
        }
      }
    }
    for (const visited of path) this.parents.set(visited, parent);
    return parent;
  }

  /** The depth of a type the document holds: its holders walked up to a root type. */
  private documentDepth(type: Y.AbstractType<unknown>): Depth {
    const path: Array<Y.AbstractType<unknown>> = [];
    let depth: Depth | undefined;
    for (let current: Y.AbstractType<unknown> | null = type; current !== null; ) {
      depth = this.documentDepths.get(current);
      if (depth !== undefined) break;
      path.push(current);
      const parent: unknown = current._item?.parent ?? null;
      current = parent instanceof Y.AbstractType ? parent : null;
    }
    let below = depth ?? ROOT_DEPTH;
    for (let index = path.length - 1; index >= 0; index--) {
      const current = path[index] as Y.AbstractType<unknown>;
      below = current._item === null ? ROOT_DEPTH : childDepth(below, current);
      this.documentDepths.set(current, below);
    }
    return below;
  }

  /**
   * The depth of `type`, created by the new item `holder`: its parents walked up (through new
   * types, then into the document), then filled in top-down.
   */
  depthOf(holder: Y.Item, type: Y.AbstractType<unknown>): Placement {
    const chain: Array<{ holder: Y.Item; type: Y.AbstractType<unknown> }> = [];
    let above: Placement | undefined;
    for (let link = { holder, type }; above === undefined; ) {
      above = this.holderDepths.get(link.holder);
      if (above !== undefined) break;
      if (chain.length > this.newItems) throw new MalformedUpdate("types nested in one another in a cycle");
      chain.push(link);
      const parent = this.parentOf(link.holder);
      if (parent.kind === "new") link = parent;
      else if (parent.kind === "document") above = { depth: this.documentDepth(parent.type), anchored: true };
      else if (parent.kind === "top-level") above = { depth: ROOT_DEPTH, anchored: true };
      else if (parent.kind === "unresolved") above = { depth: ROOT_DEPTH, anchored: false };
      else above = "dropped";
    }
    // `above` is the placement of the chain's last link's parent; fill in from there down to `type`.
    let placement = above;
    for (let index = chain.length - 1; index >= 0; index--) {
      const link = chain[index] as { holder: Y.Item; type: Y.AbstractType<unknown> };
      if (placement !== "dropped") {
        placement = { depth: childDepth(placement.depth, link.type), anchored: placement.anchored };
      }
      this.holderDepths.set(link.holder, placement);
    }
    return placement;
  }
}

/** Why a new type nests too deep, or null. */
function depthViolation(placement: Placement): string | null {
  if (placement === "dropped") return null;
  const { depth, anchored } = placement;
  const where = anchored ? "" : " below an item not yet received";
  if (depth.elements > MAX_NESTING_DEPTH) {
    return `an element at nesting depth ${depth.elements}${where} (at most ${MAX_NESTING_DEPTH})`;
  }
  if (depth.types > MAX_SHARED_TYPE_DEPTH) {
    return `a shared type at depth ${depth.types}${where} (at most ${MAX_SHARED_TYPE_DEPTH})`;
  }
  return null;
}

/**
 * How `update` breaks the content rule if `doc` took it, or null when it keeps it:
 * - a node of a type no copy of the editor knows (the document would not load anywhere);
 * - a forbidden control character in any string it adds: text, values (nested too), map keys,
 *   format keys and values, embeds, element names;
 * - an element nested deeper than MAX_NESTING_DEPTH (or shared types deeper than
 *   MAX_SHARED_TYPE_DEPTH), the depth counted from each new type's parent chain, through the
 *   update and the document (and the document's pending structs, which the update may complete:
 *   a deep chain sent first with its anchor missing must not slip in when the anchor follows);
 *   below an anchor nobody has yet, from that anchor (so no pending chain is deeper than the rule).
 * Structs the document already holds are not checked again. Cost: the update's size times the
 * depth of the places it writes to (plus the pending structs, if any); never the document's size.
 * Throws when `update` is not a Yjs update.
 */
export function updateContentViolation(update: Uint8Array, doc?: Y.Doc): ContentViolation | null {
  try {
    return violationOf(update, doc?.store ?? null);
  } catch (error) {
    if (error instanceof MalformedUpdate)
      return { rule: "malformed", detail: error.message, inPending: false };
    throw error;
  }
}

function violationOf(update: Uint8Array, store: Y.Doc["store"] | null): ContentViolation | null {
  const incoming = new NewStructs(update);
  const pendingUpdate = store?.pendingStructs?.update;
  const pending = pendingUpdate === undefined ? null : new NewStructs(pendingUpdate, true);
  const placements = new Placements(pending === null ? [incoming] : [incoming, pending], store);
  const added = incoming.items.filter((item) => !placements.inDocument(item));
  for (const item of added) {
    const unknown = unknownTypesOf(item);
    if (unknown.length > 0) {
      return {
        rule: "unknown-node-type",
        detail: `unknown node type ${unknown.join(", ")}`,
        inPending: false,
      };
    }
    const control = controlInItem(item);
    if (control !== null) {
      return {
        rule: "forbidden-control",
        detail: `a forbidden control character in ${control}`,
        inPending: false,
      };
    }
  }
  // The pending structs' strings and types were checked when they came; their depth may change
  // now that this update can give them the item they wait for.
  const typed: Array<[Y.Item[], boolean]> = [[added, false]];
  if (pending !== null) typed.push([pending.items, true]);
  for (const [items, inPending] of typed) {
    for (const item of items) {
      if (!(item.content instanceof Y.ContentType)) continue;
      const detail = depthViolation(placements.depthOf(item, item.content.type));
      if (detail !== null) return { rule: "nesting-depth", detail, inPending };
    }
  }
  return null;
}
