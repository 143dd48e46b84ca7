import { diffWordsWithSpace } from "diff";

// Two texts compared word by word: the one comparison History, Versions and pending suggestions
// show, so a reader sees which words changed, not only which blocks.

/** A piece of a changed text: kept, inserted or deleted. */
export interface TextPart {
  text: string;
  change: "same" | "added" | "removed";
}

/**
 * `before` → `after` word by word: what stayed, what was inserted and what was deleted. A change
 * of several words reads as one ("were flat" → "rose by a tenth"), not word against word: a space
 * kept between two changed words belongs to the change.
 */
export function textChanges(before: string, after: string): TextPart[] {
  const words: TextPart[] = diffWordsWithSpace(before, after).map((part) => ({
    text: part.value,
    change: part.added ? "added" : part.removed ? "removed" : "same",
  }));
  const parts: TextPart[] = [];
  let removed = "";
  let added = "";
  const keep = (text: string) => {
    const last = parts.at(-1);
    if (last?.change === "same") last.text += text;
    else if (text) parts.push({ text, change: "same" });
  };
  const endChange = () => {
    // A space both sides end with was kept, not changed.
    const space = removed && added ? (/\s+$/.exec(removed)?.[0] ?? "") : "";
    const kept = space && added.endsWith(space) ? space : "";
    const gone = removed.slice(0, removed.length - kept.length);
    const come = added.slice(0, added.length - kept.length);
    if (gone) parts.push({ text: gone, change: "removed" });
    if (come) parts.push({ text: come, change: "added" });
    keep(kept);
    removed = "";
    added = "";
  };
  words.forEach((part, index) => {
    const between =
      part.change === "same" &&
      part.text.trim() === "" &&
      (removed !== "" || added !== "") &&
      (words[index + 1]?.change ?? "same") !== "same";
    if (part.change === "removed" || between) removed += part.text;
    if (part.change === "added" || between) added += part.text;
    if (part.change === "same" && !between) {
      endChange();
      keep(part.text);
    }
  });
  endChange();
  return parts;
}

/** A stretch of a text, as [start, end) offsets. */
export type TextSpan = readonly [number, number];

/**
 * Where `parts`' deleted words are in the text before and its inserted words in the text after
 * (a change of several words is one span: the spaces between them do not split it); null when the
 * comparison has nothing to point at: the texts are equal (a change of format or block type) or
 * share no word (a rewrite, shown whole as it is).
 */
export function changedSpans(parts: TextPart[]): { removed: TextSpan[]; added: TextSpan[] } | null {
  const kept = parts.some((part) => part.change === "same" && part.text.trim() !== "");
  const changed = parts.some((part) => part.change !== "same");
  if (!kept || !changed) return null;
  const side = (skipped: TextPart["change"], marked: TextPart["change"]) => {
    const text = parts.flatMap((part) => (part.change === skipped ? [] : [part.text])).join("");
    const spans: TextSpan[] = [];
    let at = 0;
    for (const part of parts) {
      if (part.change === skipped) continue;
      if (part.change === marked) spans.push([at, at + part.text.length]);
      at += part.text.length;
    }
    return joinedAcrossSpaces(text, spans);
  };
  return { removed: side("added", "removed"), added: side("removed", "added") };
}

/** `spans` of `text` without their outer spaces, those with only spaces between them made one. */
function joinedAcrossSpaces(text: string, spans: TextSpan[]): TextSpan[] {
  const joined: Array<[number, number]> = [];
  for (const [from, to] of spans) {
    let start = from;
    let end = to;
    while (start < end && /\s/.test(text[start] ?? "")) start++;
    while (end > start && /\s/.test(text[end - 1] ?? "")) end--;
    if (start === end) continue;
    const last = joined.at(-1);
    if (last !== undefined && text.slice(last[1], start).trim() === "") last[1] = end;
    else joined.push([start, end]);
  }
  return joined;
}

/**
 * `parts` with long unchanged stretches cut to `keep` characters either side of a change ("…" in
 * place of the rest): a preview of a long paragraph shows what changed and a little around it.
 */
export function aroundChanges(parts: TextPart[], keep = 40): TextPart[] {
  // Cut at a space where there is one, so no word shows half.
  const head = (text: string) => text.slice(0, keep).replace(/\s+\S*$/, "");
  const tail = (text: string) => text.slice(-keep).replace(/^\S*\s+/, "");
  return parts.map((part, index) => {
    if (part.change !== "same" || part.text.length <= keep * 2 + 1) return part;
    const first = index === 0;
    const last = index === parts.length - 1;
    if (first) return { ...part, text: `…${tail(part.text)}` };
    if (last) return { ...part, text: `${head(part.text)}…` };
    return { ...part, text: `${head(part.text)} … ${tail(part.text)}` };
  });
}
