/**
 * Regex safety for findText, in two layers:
 * 1. Up front, reject the shapes that make backtracking blow up: a quantifier on a group that
 *    itself contains a quantifier or an alternation (`(a+)+`, `(a|aa)*`), backreferences,
 *    lookarounds, two unbounded quantifiers in a row (`.*.*`), more than two unbounded
 *    quantifiers, and patterns over 200 characters.
 * 2. While searching, bound the work: the pattern runs per text unit on at most
 *    MAX_UNIT_CHARS characters, over at most MAX_TOTAL_CHARS characters and MAX_MILLIS of
 *    wall time in all (checked between units); past a bound the search stops and reports
 *    `truncated`. With (1) each run is at worst polynomial of low degree on a short input.
 */
export const REGEX_LIMITS = {
  MAX_PATTERN: 200,
  MAX_UNIT_CHARS: 10_000,
  MAX_TOTAL_CHARS: 2_000_000,
  MAX_MILLIS: 100,
};

type Group = { quantified: boolean; alternation: boolean };

/** Why `pattern` is unsafe to run, or null when it passes the static checks. */
export function unsafeRegexReason(pattern: string): string | null {
  if (pattern.length > REGEX_LIMITS.MAX_PATTERN) return `longer than ${REGEX_LIMITS.MAX_PATTERN} characters`;
  const stack: Group[] = [{ quantified: false, alternation: false }];
  let unbounded = 0;
  let lastAtomUnbounded = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    const top = stack[stack.length - 1] ?? { quantified: false, alternation: false };
    let closed: Group | null = null;
    if (char === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9k]/.test(next)) return "backreferences are not allowed";
      i++;
    } else if (char === "[") {
      // Skip a character class: quantifier characters inside it are literals.
      i++;
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
    } else if (char === "(") {
      if (
        pattern.startsWith("(?=", i) ||
        pattern.startsWith("(?!", i) ||
        pattern.startsWith("(?<=", i) ||
        pattern.startsWith("(?<!", i)
      ) {
        return "lookarounds are not allowed";
      }
      stack.push({ quantified: false, alternation: false });
    } else if (char === ")") {
      closed = stack.pop() ?? null;
      const parent = stack[stack.length - 1];
      if (closed === null || parent === undefined) return "unbalanced parentheses";
      parent.quantified ||= closed.quantified;
      parent.alternation ||= closed.alternation;
    } else if (char === "|") top.alternation = true;
    const after = pattern[i + 1] ?? "";
    const isQuantifier = after === "*" || after === "+" || after === "?" || after === "{";
    if (!isQuantifier) {
      if (char !== "(" && char !== "|") lastAtomUnbounded = false;
      continue;
    }
    const bound = after === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i + 1)) : null;
    const isUnbounded =
      after === "*" || after === "+" || (bound !== null && bound[2] !== undefined && bound[3] === "");
    const repeats = after !== "?" && !(bound !== null && bound[2] === undefined && bound[1] === "1");
    if (closed !== null && repeats && (closed.quantified || closed.alternation)) {
      return "a repeated group contains a quantifier or an alternation (nested quantifiers)";
    }
    if (isUnbounded) {
      if (lastAtomUnbounded) return "two unbounded quantifiers in a row";
      unbounded++;
      if (unbounded > 2) return "more than two unbounded quantifiers (*, +, {n,})";
    }
    lastAtomUnbounded = isUnbounded;
    (stack[stack.length - 1] ?? top).quantified = true;
    i += bound !== null ? bound[0].length : 1;
    if (pattern[i + 1] === "?") i++;
  }
  if (stack.length !== 1) return "unbalanced parentheses";
  return null;
}
