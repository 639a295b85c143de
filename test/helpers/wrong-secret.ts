/**
 * A secret of the same shape that is certainly not `secret`: its last character swapped for another
 * of the same alphabet. Replacing it with a fixed character fails whenever the secret already ends
 * in that character (1 key in 16 for base64url's last character), and the "wrong" key is then the
 * right one.
 */
export function wrongSecret(secret: string): string {
  const last = secret.at(-1);
  if (last === undefined) throw new Error("wrongSecret needs a non-empty secret");
  return `${secret.slice(0, -1)}${last === "A" ? "B" : "A"}`;
}
