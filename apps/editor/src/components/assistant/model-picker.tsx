"use client";

import { useQuery } from "@tanstack/react-query";
import type { RefObject } from "react";
import { useTRPC } from "@/trpc/react";

/** Select for the model a run uses; an empty value means the server's default (the first listed). */
export function ModelPicker({
  value,
  onChange,
  disabled,
  selectRef,
}: {
  value: string;
  /** Lets the panel's shortcut put focus on the picker. */
  selectRef?: RefObject<HTMLSelectElement | null>;
  onChange: (model: string) => void;
  disabled?: boolean;
}) {
  const trpc = useTRPC();
  const models = useQuery({ ...trpc.llm.models.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  const selected = value || models.data?.[0]?.id || "";

  return (
    <select
      ref={selectRef}
      className="model-picker"
      aria-keyshortcuts="Alt+Shift+O"
      data-testid="assistant-model"
      aria-label="Model"
      value={selected}
      disabled={disabled || !models.data}
      onChange={(event) => onChange(event.target.value)}
    >
      {models.isPending ? <option value="">Loading models…</option> : null}
      {models.isError ? <option value="">Models unavailable</option> : null}
      {models.data?.map((model) => (
        <option key={model.id} value={model.id}>
          {model.label}
        </option>
      ))}
    </select>
  );
}
