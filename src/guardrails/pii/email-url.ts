import type { PiiSpan, Recognizer } from "./recognizer.js";

// RFC 5322's dot-atom local part, simplified to the characters real addresses use: it starts with a
// letter or digit and is at most 64 characters (RFC 5321 §4.5.3.1.1).
const LOCAL_MAX = 64;
const isLocalStart = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
// . _ % + -
const isLocal = (c: number) => isLocalStart(c) || c === 46 || c === 95 || c === 37 || c === 43 || c === 45;
// The domain after the "@": labels of at most 63 characters (RFC 1035 §2.3.4), then a TLD.
const DOMAIN = /(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}/y;
const SCHEME_URL = /\b(?:https?:\/\/|ftp:\/\/|www\.)[^\s<>"'`{}|\\^]+/gi;
// Bare domains only with TLDs that are not also common file extensions (.py, .rs, .sh, .md, .ts).
// The lookbehind skips a start that follows a whole label and its dot ("b" in "a.b.com"): a match
// from there would be inside the one starting at that label, or fail if that one failed, so the
// results are the same; without it every dot of a long "a.a.a…" chain restarts the scan (O(n²)).
const BARE_DOMAIN =
  /\b(?<!\b[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:com|org|net|edu|gov|mil|int|info|biz|io|co|ai|app|dev|me|us|uk|de|fr|it|es|nl|be|ch|at|se|no|dk|fi|pl|cz|hu|ru|jp|cn|in|br|au|ca|nz|za|ie|pt|gr|ro|tr|mx|ar|cl|kr|tw|hk|sg|il|eu|online|site|xyz|tech|store|cloud)\b(?:\/[^\s<>"'`]*)?/g;
// . , ; : ! ? ) ] ' "
const TRAILING = new Set([46, 44, 59, 58, 33, 63, 41, 93, 39, 34]);

function push(out: PiiSpan[], label: "URL" | "EMAIL_ADDRESS", start: number, value: string): void {
  // Sentence punctuation after a URL is not part of it. A loop, not /[…]+$/, which rescans the
  // run from each of its characters.
  let end = value.length;
  while (end > 0 && TRAILING.has(value.charCodeAt(end - 1))) end--;
  if (end > 3) out.push({ start, end: start + end, label });
}

/**
 * E-mail addresses, found from each "@" rather than by a regex tried at every letter: the local
 * part is the leftmost start within 64 characters before it (what /local@domain/g would choose),
 * the domain is matched once from just after it.
 */
export const emailRecognizer: Recognizer = {
  entities: ["EMAIL_ADDRESS"],
  find(text, out) {
    let from = 0;
    for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
      let start = -1;
      for (let i = at - 1; i >= Math.max(from, at - LOCAL_MAX) && isLocal(text.charCodeAt(i)); i--) {
        if (isLocalStart(text.charCodeAt(i))) start = i;
      }
      if (start < 0) continue;
      DOMAIN.lastIndex = at + 1;
      const domain = DOMAIN.exec(text);
      if (!domain) continue;
      from = DOMAIN.lastIndex;
      push(out, "EMAIL_ADDRESS", start, text.slice(start, from));
    }
  },
};

export const urlRecognizer: Recognizer = {
  entities: ["URL"],
  find(text, out) {
    if (!text.includes(".")) return;
    for (const m of text.matchAll(SCHEME_URL)) push(out, "URL", m.index, m[0]);
    for (const m of text.matchAll(BARE_DOMAIN)) {
      // The domain of an e-mail address is part of that address, not a URL of its own.
      if (text[m.index - 1] === "@" || text[m.index - 1] === "/") continue;
      push(out, "URL", m.index, m[0]);
    }
  },
};
