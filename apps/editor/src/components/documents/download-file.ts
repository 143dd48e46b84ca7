/** Saves `text` as a Markdown file the browser downloads (the page never navigates). */
export function downloadMarkdown(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/markdown;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/** A file name for a document titled `title`: the characters file systems refuse replaced. */
export function markdownFileName(title: string): string {
  const base = title.replace(/[\\/:*?"<>|]+/g, "-").trim() || "document";
  return `${base}.md`;
}
