"use client";

/** One choice of a mode switch: its value, its label, and a hint (its tooltip). */
export interface ModeOption<Mode extends string> {
  mode: Mode;
  label: string;
  hint: string;
}

/**
 * A row of toggle buttons choosing one mode (the panel's Agent / Chat, and Suggest / Edit
 * directly). `hintAsName`: the hint is each button's accessible name (its label is too terse).
 */
export function ModeSwitch<Mode extends string>({
  label,
  className = "mode-switch",
  testIdPrefix,
  options,
  value,
  onChange,
  hintAsName = false,
  keyShortcuts,
}: {
  label: string;
  className?: string;
  testIdPrefix: string;
  options: ModeOption<Mode>[];
  value: Mode;
  onChange: (mode: Mode) => void;
  hintAsName?: boolean;
  keyShortcuts?: string;
}) {
  return (
    <fieldset className={className} aria-label={label}>
      {options.map((option) => (
        <button
          key={option.mode}
          type="button"
          className="mode-button"
          data-testid={`${testIdPrefix}${option.mode}`}
          aria-pressed={value === option.mode}
          aria-label={hintAsName ? option.hint : undefined}
          aria-keyshortcuts={keyShortcuts}
          title={option.hint}
          onClick={() => onChange(option.mode)}
        >
          {option.label}
        </button>
      ))}
    </fieldset>
  );
}
