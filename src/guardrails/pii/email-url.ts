import type { PiiSpan, Recognizer } from "./recognizer.js";

// RFC 5322's dot-atom local part, simplified to the characters real addresses use.
const EMAIL =
  /[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}/g;
const SCHEME_URL = /\b(?:https?:\/\/|ftp:\/\/|www\.)[^\s<>"'`{}|\\^]+/gi;
// Bare domains only with TLDs that are not also common file extensions (.py, .rs, .sh, .md, .ts).
const BARE_DOMAIN =
  /\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:com|org|net|edu|gov|mil|int|info|biz|io|co|ai|app|dev|me|us|uk|de|fr|it|es|nl|be|ch|at|se|no|dk|fi|pl|cz|hu|ru|jp|cn|in|br|au|ca|nz|za|ie|pt|gr|ro|tr|mx|ar|cl|kr|tw|hk|sg|il|eu|online|site|xyz|tech|store|cloud)\b(?:\/[^\s<>"'`]*)?/g;
const TRAILING = /[.,;:!?)\]'"]+$/;

function push(out: PiiSpan[], label: "URL" | "EMAIL_ADDRESS", start: number, value: string): void {
  const trimmed = value.replace(TRAILING, "");
  if (trimmed.length > 3) out.push({ start, end: start + trimmed.length, label });
}

export const emailRecognizer: Recognizer = {
  entities: ["EMAIL_ADDRESS"],
  find(text, out) {
    if (!text.includes("@")) return;
    for (const m of text.matchAll(EMAIL)) push(out, "EMAIL_ADDRESS", m.index, m[0]);
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
