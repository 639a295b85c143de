import { z } from "zod";

/**
 * The chat messages input-check reads beside (or instead of) one `message`: the OpenAI chat shape
 * (https://platform.openai.com/docs/api-reference/chat/create, `messages`). Fields it does not read
 * (`name`, `refusal`, `audio`, …) are let through, as the request body's are: clients send more.
 */
export const ROLES = ["system", "developer", "user", "assistant", "tool"] as const;
export type Role = (typeof ROLES)[number];

/** The most messages one request may carry (docs/conversations.md, "Limits"). */
export const MAX_MESSAGES = 256;

/** A content part: `text` parts are read; images, audio, files and the like are skipped and counted. */
const part = z
  .looseObject(
    { type: z.string({ error: "must be a string naming the part's type" }) },
    {
      error: 'must be an object with a "type"',
    },
  )
  .superRefine((value, ctx) => {
    if (value.type === "text" && typeof value.text !== "string") {
      ctx.addIssue({ code: "custom", path: ["text"], message: "must be a string in a text part" });
    }
  });

const content = z.union([z.string(), z.null(), z.array(part)], {
  error: "must be a string, null or a list of content parts",
});

const toolCall = z.looseObject(
  {
    id: z.string({ error: "must be a string" }).optional(),
    function: z.looseObject(
      {
        name: z.string({ error: "must be a string" }),
        arguments: z.string({ error: "must be a string (the arguments as JSON text)" }),
      },
      { error: "must be an object with name and arguments" },
    ),
  },
  { error: "must be an object with a function" },
);

export const chatMessage = z
  .looseObject(
    {
      role: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }),
      content: content.optional(),
      tool_calls: z.array(toolCall, { error: "must be a list of tool calls" }).optional(),
      tool_call_id: z.string({ error: "must be a string" }).optional(),
    },
    { error: "must be an object with a role" },
  )
  .superRefine((value, ctx) => {
    // Anything else would be a message a chat API refuses: better named here than scanned wrongly.
    if (value.tool_calls !== undefined && value.role !== "assistant") {
      ctx.addIssue({
        code: "custom",
        path: ["tool_calls"],
        message: "only an assistant message has tool calls",
      });
    }
  });

export const chatMessages = z
  .array(chatMessage, { error: "must be a list of chat messages" })
  .min(1, "must hold at least one message")
  .max(MAX_MESSAGES, `must hold at most ${MAX_MESSAGES} messages`);

export type ChatMessage = z.output<typeof chatMessage>;
