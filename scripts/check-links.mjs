#!/usr/bin/env node
// Fails when a link in README.md or docs/**/*.md points nowhere: a relative link to a file or folder
// that does not exist, or a `#anchor` (in the same page or another Markdown page) that no heading
// makes, with GitHub's heading slugs (lower case, punctuation dropped, spaces to hyphens, `-1`, `-2`
// for repeats) and `id` / `name` attributes of HTML tags. Links in code (fenced blocks, code spans)
// are not links; web addresses (`https:`, `mailto:` …) are not checked. A step of `npm test`
// (scripts/run.mjs), before the packages' suites: it needs nothing installed and takes milliseconds.
// `node scripts/check-links.mjs [file.md …]` checks the files named instead.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function markdownFiles() {
  const files = [join(root, "README.md")];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk(join(root, "docs"));
  return files;
}

// The lines of a page that are Markdown text, each with its 1-based number: fenced code blocks (also
// indented in a list item) are left out, and code spans blanked, so that neither their headings nor
// their links count.
function textLines(source) {
  const lines = [];
  let fence = null;
  source.split("\n").forEach((line, index) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (
        opening &&
        opening[1][0] === fence[0] &&
        opening[1].length >= fence.length &&
        /^\s*[`~]+\s*$/.test(line)
      )
        fence = null;
      return;
    }
    if (opening) {
      fence = opening[1];
      return;
    }
    const text = line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => " ".repeat(span.length));
    lines.push({ number: index + 1, raw: line, text });
  });
  return lines;
}

// GitHub's slug of a heading: its text as rendered (link text kept, code and emphasis marks gone),
// lower case, anything but letters, digits, `_`, spaces and hyphens dropped, each space a hyphen.
export function slug(heading) {
  // Code spans keep their text as written; outside them links, tags and emphasis marks go.
  const text = heading
    .split(/(`+[^`]*`+)/)
    .map((part, index) =>
      index % 2 === 1
        ? part.replace(/^`+|`+$/g, "")
        : part
            .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
            .replace(/<[^>]+>/g, "")
            .replace(/\*|~~/g, "")
            .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, "$1"),
    )
    .join("");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

const anchorCache = new Map();

export function anchorsOf(file) {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map();
  for (const { raw, text } of textLines(readFileSync(file, "utf8"))) {
    // Read from the raw line: a heading's code span is part of its slug.
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(raw);
    if (heading) {
      const base = slug(heading[1]);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const match of text.matchAll(/<[a-z][^>]*?\s(?:id|name)\s*=\s*["']([^"']+)["']/gi))
      anchors.add(match[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

// Every link target of a page, with its line: inline links and images `[text](target "title")`,
// reference definitions `[label]: target`, and `href` / `src` of HTML tags.
export function linksOf(source) {
  const links = [];
  for (const { number, text } of textLines(source)) {
    for (const match of text.matchAll(/\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)/g))
      links.push({ line: number, target: match[1].replace(/^<|>$/g, "") });
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(text);
    if (definition) links.push({ line: number, target: definition[1].replace(/^<|>$/g, "") });
    for (const match of text.matchAll(/<[a-z][^>]*?\s(?:href|src)\s*=\s*["']([^"']*)["']/gi))
      links.push({ line: number, target: match[1] });
  }
  return links;
}

// Why a link of `file` points nowhere, or null when it points somewhere.
export function brokenReason(file, target) {
  if (target === "") return "an empty link";
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return null;
  const hash = target.indexOf("#");
  const pathPart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? null : target.slice(hash + 1);
  let path;
  try {
    path = decodeURIComponent(pathPart.split("?")[0]);
  } catch {
    return "its path is not valid percent-encoding";
  }
  const destination =
    path === "" ? file : path.startsWith("/") ? join(root, path) : resolve(dirname(file), path);
  if (destination !== root && !destination.startsWith(root + sep)) return "it leads out of the repository";
  if (!existsSync(destination)) return `${relative(root, destination)} does not exist`;
  if (anchor === null || anchor === "") return null;
  if (!destination.endsWith(".md") || statSync(destination).isDirectory()) return null;
  let name;
  try {
    name = decodeURIComponent(anchor);
  } catch {
    return "its anchor is not valid percent-encoding";
  }
  if (anchorsOf(destination).has(name) || anchorsOf(destination).has(name.toLowerCase())) return null;
  return `no heading of ${relative(root, destination)} makes the anchor #${name}`;
}

function main() {
  const files =
    process.argv.length > 2 ? process.argv.slice(2).map((file) => resolve(file)) : markdownFiles();
  const problems = [];
  let count = 0;
  for (const file of files) {
    for (const { line, target } of linksOf(readFileSync(file, "utf8"))) {
      count += 1;
      const reason = brokenReason(file, target);
      if (reason) problems.push(`${relative(root, file)}:${line}: (${target}) points nowhere: ${reason}`);
    }
  }
  if (problems.length > 0) {
    process.stderr.write(`[check-links] ${problems.length} broken link(s):\n${problems.join("\n")}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `[check-links] ${count} links in ${files.length} Markdown files all point somewhere\n`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
