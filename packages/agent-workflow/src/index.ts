export { agentEnv } from "./env.ts";
export {
  HOOK_TOKEN_AUDIENCE,
  HOOK_TOKEN_TYPE,
  type HookTokenFailure,
  signHookToken,
  verifyHookToken,
} from "./hook-token.ts";
export { type LogFields, type Logger, log } from "./log.ts";
export { abortRun, forgetRun, runSignal } from "./run-control.ts";
