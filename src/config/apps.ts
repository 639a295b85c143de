import { randomBytes } from "node:crypto";
import { z } from "zod";

export const appRecordSchema = z.strictObject({
  name: z.string().min(1, "must not be empty"),
  id: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, "8–128 letters, digits, '_' or '-'"),
  profile: z.string().min(1, "must name a security profile"),
  created: z.string().optional(),
});
export type AppRecord = z.output<typeof appRecordSchema>;

export const appsFileSchema = z.strictObject({ apps: z.array(appRecordSchema).default([]) });

export function generateAppId(): string {
  return `app_${randomBytes(12).toString("base64url")}`;
}

/** The dashboard shows App IDs masked; so do we, keeping the prefix and the last four characters. */
export function maskAppId(id: string): string {
  if (id.length <= 8) return "*".repeat(id.length);
  return `${id.slice(0, 4)}${"*".repeat(Math.max(4, id.length - 8))}${id.slice(-4)}`;
}
