/** The tools the offline model's `tidy up` calls on TOUR_DOCUMENT, in order. */
export const TOUR_TOOLS = [
  "readDocument",
  "setBlockType",
  "formatText",
  "replaceText",
  "updateTableCell",
  "moveBlock",
  "insertTable",
];

/** A document with a heading, a paragraph with typos, a list, a table and a closing line (the `tidy up` tour). */
export const TOUR_DOCUMENT = [
  "# Project notes",
  "We fixed teh bug and wrote teh docs.",
  "- first item\n- second item",
  "| Task | Status |\n| --- | --- |\n| Ship | Open |",
  "Closing words.",
].join("\n\n");
