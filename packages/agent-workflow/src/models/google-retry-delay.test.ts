import { describe, expect, it } from "vitest";
import { googleRetryDelaySeconds } from "./google-retry-delay.ts";

const body = (details: unknown[]) => ({ error: { code: 429, status: "RESOURCE_EXHAUSTED", details } });
const retryInfo = (retryDelay: unknown) => ({
  "@type": "type.googleapis.com/google.rpc.RetryInfo",
  retryDelay,
});

describe("the wait a Gemini 429 asks for", () => {
  it("is read from RetryInfo, in seconds", () => {
    expect(googleRetryDelaySeconds(body([{ "@type": "other" }, retryInfo("27s")]))).toBe(27);
    expect(googleRetryDelaySeconds(body([retryInfo("0.5s")]))).toBe(0.5);
  });

  it("is undefined when the body names none or names it oddly", () => {
    expect(googleRetryDelaySeconds(body([]))).toBeUndefined();
    expect(googleRetryDelaySeconds(body([retryInfo("soon")]))).toBeUndefined();
    expect(googleRetryDelaySeconds(body([retryInfo(27)]))).toBeUndefined();
    expect(googleRetryDelaySeconds(null)).toBeUndefined();
  });
});
