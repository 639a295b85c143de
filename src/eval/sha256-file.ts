import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

/** The SHA-256 of a file's bytes, in hex, read as a stream (memory stays flat on a 10 GB file). */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
