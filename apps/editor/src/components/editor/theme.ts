import type { EditorThemeClasses } from "lexical";

/** CSS class names Lexical puts on document nodes (styled in globals.css under `.doc-`). */
export const editorTheme: EditorThemeClasses = {
  paragraph: "doc-paragraph",
  quote: "doc-quote",
  heading: { h1: "doc-h1", h2: "doc-h2", h3: "doc-h3", h4: "doc-h4", h5: "doc-h5", h6: "doc-h6" },
  list: {
    ul: "doc-ul",
    ol: "doc-ol",
    listitem: "doc-li",
    nested: { listitem: "doc-li-nested" },
  },
  code: "doc-code",
  link: "doc-link",
  // Comment anchors (MarkNode); overlapping threads nest marks.
  mark: "doc-comment",
  markOverlap: "doc-comment-overlap",
  text: {
    bold: "doc-bold",
    italic: "doc-italic",
    underline: "doc-underline",
    strikethrough: "doc-strike",
    underlineStrikethrough: "doc-underline-strike",
    code: "doc-inline-code",
  },
};
