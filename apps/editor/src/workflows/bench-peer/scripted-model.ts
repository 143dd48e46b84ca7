import type { LanguageModelV4, LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { createOfflineModel } from "@coauthor/agent-workflow/offline-model";
import { WORKFLOW_DESERIALIZE, WORKFLOW_SERIALIZE } from "@workflow/serde";

/**
 * The offline model at full speed (the one Coauthor's bench runs), as a class the Workflow
 * DevKit can carry into `WorkflowAgent`'s model step: the agent passes its model across the
 * step boundary, so the model must serialize (the AI SDK's own test models do the same).
 * Same script, same tool calls, same words as Coauthor gets: the peer is measured on equal terms.
 */
export class PeerScriptedModel implements LanguageModelV4 {
  readonly specificationVersion = "v4";
  readonly provider = "coauthor";
  readonly modelId = "offline";
  readonly supportedUrls = {};
  private readonly model = createOfflineModel({ wordDelayMs: 0 });

  static [WORKFLOW_SERIALIZE](_model: PeerScriptedModel): Record<string, never> {
    return {};
  }

  static [WORKFLOW_DESERIALIZE](_data: Record<string, never>): PeerScriptedModel {
    return new PeerScriptedModel();
  }

  doGenerate(call: LanguageModelV4CallOptions): ReturnType<LanguageModelV4["doGenerate"]> {
    return this.model.doGenerate(call);
  }

  doStream(call: LanguageModelV4CallOptions): ReturnType<LanguageModelV4["doStream"]> {
    return this.model.doStream(call);
  }
}
