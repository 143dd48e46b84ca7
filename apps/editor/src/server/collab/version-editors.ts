// Who changed each document since its last version, so every version — named, around a run,
// before a restore, after a pause — says which people changed the document since the one before
// it. Per instance: each notes the edits its own connections make (an update relayed from another
// instance is that instance's), so on several instances a version names the people this one saw.

// On globalThis: Next bundles the server start (which notes edits) and the routes (which take
// versions) apart, and each bundle would have a map of its own.
const KEY = Symbol.for("coauthor.version-editors");
type Holder = typeof globalThis & { [KEY]?: Map<string, Set<string>> };

function editorsByDocument(): Map<string, Set<string>> {
  const holder = globalThis as Holder;
  holder[KEY] ??= new Map();
  return holder[KEY];
}

/** Most people kept per document between two versions (the list names the first ones). */
const MAX_EDITORS = 50;

/** `userId` changed `documentId`. */
export function noteVersionEditor(documentId: string, userId: string): void {
  const editorsSince = editorsByDocument();
  const editors = editorsSince.get(documentId) ?? new Set<string>();
  if (editors.size < MAX_EDITORS) editors.add(userId);
  editorsSince.set(documentId, editors);
}

/** The people who changed `documentId` since the last call for it (a version was taken): they start again. */
export function takeVersionEditors(documentId: string): string[] {
  const editorsSince = editorsByDocument();
  const editors = editorsSince.get(documentId);
  editorsSince.delete(documentId);
  return editors ? [...editors] : [];
}
