// The offline demo model's "brain": a pure function from the conversation so
// far to the next turn (text + at most one tool call). No I/O, deterministic.

import {
  type Block,
  blocksOf,
  describeBlocks,
  failed,
  notRun,
  peopleDecisions,
  plainText,
  readSoFar,
  type ScriptedToolCall,
  type ScriptedTurn,
  type SeenToolResult,
} from "./offline-reading.ts";

/** A word the offline model replaces with the epoch milliseconds at which it emits it. */
export const EMIT_TIME_WORD = "{emit-time}";

const firstSentence = (text: string) => (text.match(/^.*?[.!?](\s|$)/)?.[0] ?? text).trim();

/**
 * The next turn for `prompt`, given the tool results seen since it was asked; its last words say
 * what people decided about the run's suggestions meanwhile, as the results told it.
 */
export function nextOfflineTurn(prompt: string, allSeen: SeenToolResult[]): ScriptedTurn {
  const turn = scriptedTurn(prompt, allSeen);
  const decisions = peopleDecisions(allSeen);
  if (turn.toolCall !== undefined || decisions.length === 0) return turn;
  const told = decisions.map(
    (outcome) =>
      `${outcome.by} ${outcome.decision === "accept" ? "accepted" : "rejected"} my suggestion “${outcome.text}”.`,
  );
  return { ...turn, text: [turn.text, ...told].join(" ") };
}

function scriptedTurn(prompt: string, allSeen: SeenToolResult[]): ScriptedTurn {
  const seen = allSeen.filter((result) => !notRun(result));
  const last = seen.at(-1);
  const lastError = last ? failed(last.output) : undefined;
  const quoted = (re: RegExp) => prompt.match(re);

  // In Suggest mode: a suggestion, then the run's own decision on it (decideSuggestions).
  const decided = quoted(/^\s*append\s+"([^"]*)"\s+and\s+(accept|reject)\s+it\b/i);
  if (decided) {
    const decision = decided[2]?.toLowerCase() === "accept" ? "accept" : "reject";
    if (!last) return { text: "Suggesting the paragraph.", toolCall: insertAtEnd(decided[1] ?? "") };
    if (lastError) return { text: `I could not finish: ${lastError}` };
    if (last.toolName === "insertBlocks") {
      const blockIds = (last.output as { blockIds?: string[] }).blockIds ?? [];
      return {
        text: decision === "accept" ? "Accepting my suggestion." : "Taking my suggestion back.",
        toolCall: { toolName: "decideSuggestions", input: { decision, blockIds } },
      };
    }
    return {
      text: decision === "accept" ? "Done: my suggestion is accepted." : "Done: my suggestion is withdrawn.",
    };
  }
  const append = quoted(/^\s*append\s+"([^"]*)"/i);
  if (append) {
    if (!last) return { text: "Appending the paragraph.", toolCall: insertAtEnd(append[1] ?? "") };
    return { text: lastError ? `I could not append it: ${lastError}` : "Done: the paragraph is at the end." };
  }
  const heading = quoted(/^\s*add\s+a\s+heading\s+"([^"]*)"/i);
  if (heading) {
    if (!last) return { text: "Adding the heading.", toolCall: insertAtEnd(`## ${heading[1] ?? ""}`) };
    return { text: lastError ? `I could not add it: ${lastError}` : "Done: the heading is at the end." };
  }
  const replace = quoted(/^\s*replace\s+"([^"]+)"\s+with\s+"([^"]*)"/i);
  if (replace) {
    if (!last) {
      return {
        text: `Replacing "${replace[1]}" with "${replace[2]}".`,
        toolCall: {
          toolName: "replaceText",
          input: { search: replace[1], replace: replace[2], occurrence: "all" },
        },
      };
    }
    return { text: lastError ? `Nothing replaced: ${lastError}` : "Done: every occurrence is replaced." };
  }
  const remove = quoted(/^\s*delete\s+paragraphs\s+containing\s+"([^"]+)"/i);
  if (remove) {
    const needle = remove[1] ?? "";
    if (!last)
      return { text: "Reading the document first.", toolCall: { toolName: "readDocument", input: {} } };
    if (last.toolName === "readDocument") {
      const { blocks, readOn } = readSoFar(seen);
      if (readOn) return { text: "Reading on.", toolCall: readOn };
      const ids = blocks
        .filter((b) => b.type === "paragraph" && b.markdown.includes(needle))
        .map((b) => b.id);
      if (ids.length === 0) return { text: `No paragraph contains "${needle}".` };
      return {
        text: `Deleting ${ids.length} ${ids.length === 1 ? "paragraph" : "paragraphs"}.`,
        toolCall: { toolName: "deleteBlocks", input: { blockIds: ids } },
      };
    }
    return { text: lastError ? `Nothing deleted: ${lastError}` : "Done: those paragraphs are gone." };
  }
  const comment = quoted(/^\s*comment\s+on\s+"([^"]+)"\s+saying\s+"([^"]+)"/i);
  if (comment) {
    const [, quote = "", body = ""] = comment;
    if (!last)
      return { text: "Reading the document first.", toolCall: { toolName: "readDocument", input: {} } };
    if (last.toolName === "readDocument") {
      const { blocks, readOn } = readSoFar(seen);
      if (readOn) return { text: "Reading on.", toolCall: readOn };
      const block = blocks.find((b) => plainText(b.markdown).includes(quote));
      if (!block) return { text: `No block holds "${quote}".` };
      return {
        text: `Commenting on "${quote}".`,
        toolCall: { toolName: "addComment", input: { blockId: block.id, quote, comment: body } },
      };
    }
    return { text: lastError ? `I could not comment: ${lastError}` : "Done: the comment is on the text." };
  }
  const version = quoted(/^\s*show\s+the\s+version\s+"([^"]+)"/i);
  if (version) return showVersion(version[1] ?? "", seen, lastError);
  const count = quoted(COUNT_PROMPT);
  if (count) {
    const target = countTarget(count);
    const done = seen.length;
    if (lastError) return { text: `I stopped at ${done - 1}: ${lastError}` };
    if (done < target) {
      return { text: `Adding number ${done + 1} of ${target}.`, toolCall: insertAtEnd(String(done + 1)) };
    }
    return { text: `Counted to ${target}.` };
  }
  const write = quoted(/^\s*write\s+(\d{1,6})\s+(timed\s+)?words\b/i);
  if (write) {
    // A long answer with no tool call (benchmarks of text throughput). Timed
    // words are stamped with their emit time by the model as it streams them.
    const count = Math.min(Number(write[1]), 100_000);
    const words = Array.from({ length: count }, (_, i) => (write[2] ? EMIT_TIME_WORD : `w${i + 1}`));
    return { text: words.join(" ") };
  }
  if (/^\s*tidy\s+up\b/i.test(prompt)) {
    if (!last)
      return {
        text: "Reading the document to tidy it up.",
        toolCall: { toolName: "readDocument", input: {} },
      };
    const steps = tidyUpSteps(blocksOf(seen[0]?.output));
    const next = steps[seen.length - 1];
    if (next) return next;
    return { text: `Tidied up: ${steps.length} edits.` };
  }
  if (/^\s*summari[sz]e\b/i.test(prompt)) {
    if (!last)
      return {
        text: "Reading the document to summarize it.",
        toolCall: { toolName: "readDocument", input: {} },
      };
    if (last.toolName === "readDocument") {
      const { blocks, readOn } = readSoFar(seen);
      if (readOn) return { text: "Reading on.", toolCall: readOn };
      const sentences = blocks
        .filter((b) => b.type === "paragraph" && plainText(b.markdown))
        .map((b) => firstSentence(plainText(b.markdown)));
      const body = sentences.length > 0 ? sentences.join("\n\n") : "The document has no paragraphs yet.";
      return { text: "Writing the summary.", toolCall: insertAtEnd(`## Summary\n\n${body}`) };
    }
    return {
      text: lastError ? `I could not write the summary: ${lastError}` : "Done: the summary is at the end.",
    };
  }
  if (!last) return { text: "Let me read the document.", toolCall: { toolName: "readDocument", input: {} } };
  const { blocks, readOn } = readSoFar(seen);
  if (readOn) return { text: "Reading on.", toolCall: readOn };
  return { text: `${describeBlocks(blocks)} I did not change anything.` };
}

const COUNT_PROMPT = /^\s*count\s+to\s+(\d{1,4})\b/i;
const countTarget = (match: RegExpMatchArray) => Math.min(Number(match[1]), 1000);

/**
 * The offline model's last words when a run ends before its work is done (a limit, its time):
 * what it did and what is left, in a sentence.
 */
export function offlineWrapUp(prompt: string, allSeen: SeenToolResult[]): string {
  const seen = allSeen.filter((result) => !notRun(result));
  const count = prompt.match(COUNT_PROMPT);
  if (count) {
    const target = countTarget(count);
    const done = seen.filter((result) => !failed(result.output)).length;
    return `I added the numbers 1 to ${done} of ${target}; ${target - done} ${target - done === 1 ? "is" : "are"} left.`;
  }
  const calls = seen.length;
  return `I made ${calls} ${calls === 1 ? "edit or read" : "edits and reads"} for "${prompt}", and the task is not finished yet.`;
}

/** Whether `prompt` asks to go on with the task before it (the panel's Continue). */
export function isContinuePrompt(prompt: string): boolean {
  return /^\s*continue\b/i.test(prompt);
}

function insertAtEnd(markdown: string): ScriptedToolCall {
  return { toolName: "insertBlocks", input: { markdown, position: { at: "end" } } };
}

/** `tidy up`: a fixed tour of the editing tools over the blocks read at the start. */
function tidyUpSteps(blocks: Block[]): ScriptedTurn[] {
  const first = (test: (b: Block) => boolean) => blocks.find(test);
  const paragraph = first((b) => b.type === "paragraph" && plainText(b.markdown) !== "");
  const heading = first((b) => b.type.startsWith("heading"));
  const table = first((b) => b.type === "table");
  const list = first((b) => b.type.endsWith("-list"));
  const steps: (ScriptedTurn | undefined)[] = [
    paragraph && {
      text: "Turning the first paragraph into a quote.",
      toolCall: { toolName: "setBlockType", input: { blockId: paragraph.id, type: "quote" } },
    },
    heading && {
      text: "Putting the first word of the first heading in bold.",
      toolCall: {
        toolName: "formatText",
        input: { blockId: heading.id, text: plainText(heading.markdown).split(/\s+/)[0], add: ["bold"] },
      },
    },
    blocks.some((b) => b.markdown.includes("teh"))
      ? {
          text: 'Fixing "teh".',
          toolCall: { toolName: "replaceText", input: { search: "teh", replace: "the", occurrence: "all" } },
        }
      : undefined,
    table && {
      text: "Marking the first row of the table done.",
      toolCall: {
        toolName: "updateTableCell",
        input: { blockId: table.id, row: 1, column: 1, text: "Done" },
      },
    },
    list && {
      text: "Moving the list to the end.",
      toolCall: { toolName: "moveBlock", input: { blockId: list.id, position: { at: "end" } } },
    },
    {
      text: "Adding a table of next steps.",
      toolCall: {
        toolName: "insertTable",
        input: {
          rows: [
            ["Next step", "Owner"],
            ["Review", "Writer"],
          ],
          header: true,
          position: { at: "end" },
        },
      },
    },
  ];
  return steps.filter((step): step is ScriptedTurn => Boolean(step));
}

/**
 * `show the version "<name>"`: lists the versions, reads the newest one labelled exactly so (a
 * run's own "Before Coauthor's run …" version quotes the prompt, name and all), quotes it.
 */
function showVersion(name: string, seen: SeenToolResult[], lastError: string | undefined): ScriptedTurn {
  const last = seen.at(-1);
  if (!last) return { text: "Looking at the versions.", toolCall: { toolName: "listVersions", input: {} } };
  if (lastError) return { text: `I could not read the versions: ${lastError}` };
  if (last.toolName === "listVersions") {
    const versions =
      (last.output as { versions?: Array<{ versionId: number; label: string }> }).versions ?? [];
    const found = versions.find((candidate) => candidate.label === name);
    if (!found) return { text: `No version is called "${name}".` };
    return {
      text: `Reading "${found.label}".`,
      toolCall: { toolName: "readVersion", input: { versionId: found.versionId } },
    };
  }
  const read = last.output as { label?: string; markdown?: string };
  return { text: `The version "${read.label ?? name}" reads: ${read.markdown ?? ""}` };
}
