import { z } from "zod";
import type { GuardrailRegistry } from "../guardrails/registry.js";
import { GUARDRAIL_IDS, type GuardrailId } from "../guardrails/types.js";
import { type ConversationSettings, conversationSettings, SCANNED_TEXTS } from "./conversation.js";
import { formatIssues } from "./issues.js";
import type { Locate } from "./yaml-locate.js";

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** A validated security profile: which guardrails run, with what settings. */
export interface Profile {
  readonly name: string;
  readonly description?: string;
  readonly isDefault: boolean;
  /** What a guardrail that fails at run time means for the verdict: fail closed or open. */
  readonly onError: "block" | "allow";
  readonly guardrails: Readonly<Record<GuardrailId, { enabled: boolean } & Record<string, unknown>>>;
  /** What input-check scans of a `messages` array; absent: DEFAULT_CONVERSATION (src/config/conversation.ts). */
  readonly conversation?: ConversationSettings;
  /** Where it was read from, for error messages and relative paths. */
  readonly file: string;
}

function profileSchema(registry: GuardrailRegistry) {
  const guardrails = z.strictObject(
    Object.fromEntries(GUARDRAIL_IDS.map((id) => [id, registry[id].settings.prefault({ enabled: false })])),
  );
  return z.strictObject({
    name: z.string().regex(PROFILE_NAME, "letters, digits, '.', '_' and '-' only, at most 64").optional(),
    description: z.string().optional(),
    default: z.boolean().default(false),
    on_error: z.enum(["block", "allow"]).default("block"),
    guardrails: guardrails.prefault({}),
    conversation: conversationSettings.prefault({}).superRefine((settings, ctx) => {
      // Messages are read by input-check: a guardrail of responses only has nothing to scan there.
      for (const key of SCANNED_TEXTS) {
        const ids = settings.scan[key];
        if (ids === "all") continue;
        ids.forEach((id, i) => {
          if (registry[id].appliesTo.includes("input")) return;
          ctx.addIssue({ code: "custom", path: ["scan", key, i], message: `${id} checks responses only` });
        });
      }
    }),
  });
}

/**
 * Pure: validates one parsed YAML document. `file` names it in errors, `locate` (when the text is
 * at hand) gives their lines; `stem` is the fallback name.
 */
export function parseProfile(
  raw: unknown,
  where: { file: string; stem: string; locate?: Locate },
  registry: GuardrailRegistry,
): Profile | { problems: string[] } {
  const parsed = profileSchema(registry).safeParse(raw ?? {});
  if (!parsed.success) return { problems: formatIssues(where.file, parsed.error.issues, where.locate) };
  const { name, description, default: isDefault, on_error, guardrails, conversation } = parsed.data;
  if (name === undefined && !PROFILE_NAME.test(where.stem)) {
    return { problems: [`${where.file}: name: file name is not a valid profile name; add a name: field`] };
  }
  return {
    name: name ?? where.stem,
    ...(description === undefined ? {} : { description }),
    isDefault,
    onError: on_error,
    guardrails: guardrails as Profile["guardrails"],
    conversation,
    file: where.file,
  };
}
