import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { ModelTimeoutError } from "./model-call-deadline.ts";
import { classifyModelError } from "./provider-errors.ts";

function apiError(statusCode: number, responseBody: string): APICallError {
  return new APICallError({
    message: JSON.parse(responseBody).error?.message ?? "error",
    url: "http://127.0.0.1/v1",
    requestBodyValues: {},
    statusCode,
    responseBody,
  });
}

describe("a failed model call, as the writer reads it", () => {
  it("keeps the kind of the last attempt once the retries give up, and logs the attempts", () => {
    const overloaded = apiError(
      529,
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    );
    const failure = classifyModelError(
      new RetryError({
        message: "gave up",
        reason: "maxRetriesExceeded",
        errors: [overloaded, overloaded, overloaded],
      }),
    );
    expect(failure).toMatchObject({
      code: "model-overloaded",
      message: expect.stringMatching(/^The model provider is overloaded/),
    });
    expect(failure.detail).toContain("gave up after 3 attempts");
  });

  it("reads an error event sent mid-stream (Anthropic's documented overloaded_error)", () => {
    expect(classifyModelError({ type: "overloaded_error", message: "Overloaded" }).code).toBe(
      "model-overloaded",
    );
  });

  it("tells a bad request that is not about length from a context that is too long", () => {
    const bad = apiError(
      400,
      '{"error":{"message":"tools[0].name: invalid","type":"invalid_request_error"}}',
    );
    expect(classifyModelError(bad)).toMatchObject({
      code: "model-error",
      message: "The model call failed: model provider answered HTTP 400: tools[0].name: invalid.",
    });
  });

  it("says which time limit ended the call", () => {
    expect(classifyModelError(new ModelTimeoutError("silence", 120_000)).message).toBe(
      "The model stopped answering (nothing for 120 s), so the request was ended; try again.",
    );
    expect(classifyModelError(new ModelTimeoutError("total", 600_000)).message).toMatch(
      /timed out after 600000 ms/,
    );
  });
});
