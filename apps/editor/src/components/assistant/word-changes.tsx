import type { TextPart } from "../editor/word-diff";

/** A text compared word by word: inserted words underlined (`ins`), deleted ones struck through (`del`). */
export function WordChanges({ parts }: { parts: TextPart[] }) {
  return (
    <>
      {parts.map((part, index) => {
        const key = `${index}:${part.change}`;
        if (part.change === "added")
          return (
            <ins key={key} className="word-added">
              {part.text}
            </ins>
          );
        if (part.change === "removed")
          return (
            <del key={key} className="word-removed">
              {part.text}
            </del>
          );
        return <span key={key}>{part.text}</span>;
      })}
    </>
  );
}
