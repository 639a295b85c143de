import type { Engine } from "../engine/engine.js";
import type { ServerMetrics } from "./metrics.js";

/**
 * The server's engine, with each finished check's per-guardrail times, flags and failures
 * recorded. A check that throws (its client gone, the lane down) records nothing: it has no outcome.
 */
export function meteredEngine(engine: Engine, metrics: ServerMetrics): Engine {
  const check: Engine["check"] = async (mode, message, profile, prompt, options) => {
    const outcome = await engine.check(mode, message, profile, prompt, options);
    metrics.checked(mode, profile.profile.name, outcome);
    return outcome;
  };
  const checkMessages: Engine["checkMessages"] = async (messages, profile, options) => {
    const outcome = await engine.checkMessages(messages, profile, options);
    metrics.checked("input", profile.profile.name, outcome);
    return outcome;
  };
  return {
    check,
    checkMessages,
    inputCheck: async (message, profile) => (await check("input", message, profile)).body,
    outputCheck: async (message, prompt, profile) => (await check("output", message, profile, prompt)).body,
  };
}
