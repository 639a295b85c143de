import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/** Keys start with a recognisable prefix so secret scanners and people can spot a leaked one. */
export const KEY_PREFIX = "grk_";

export const keyRecordSchema = z.strictObject({
  id: z.string().regex(/^key_[a-z0-9]{8,32}$/, "must look like key_ followed by 8–32 letters or digits"),
  label: z.string().default(""),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "must be the 64-character hex SHA-256 of the key"),
  created: z.string().min(1),
  revoked: z.string().optional(),
});
export type KeyRecord = z.output<typeof keyRecordSchema>;

export const keysFileSchema = z.strictObject({ keys: z.array(keyRecordSchema).default([]) });

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** 32 random bytes: 256 bits of entropy, base64url so it survives headers and shells. */
export function generateKey(): { key: string; record: Omit<KeyRecord, "label" | "created"> } {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { key, record: { id: `key_${randomBytes(6).toString("hex")}`, sha256: hashKey(key) } };
}

/**
 * True when `presented` hashes to an active key. Every active key is compared, each in constant
 * time over the fixed-length digests, so timing reveals neither which key nor how much matched.
 */
export function verifyKey(presented: string, keys: readonly KeyRecord[]): boolean {
  const digest = Buffer.from(hashKey(presented), "hex");
  let ok = false;
  for (const record of keys) {
    if (record.revoked) continue;
    ok = timingSafeEqual(digest, Buffer.from(record.sha256, "hex")) || ok;
  }
  return ok;
}
