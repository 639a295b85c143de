import type { PiiSpan, Recognizer } from "./recognizer.js";

// AWS access key ids: a 4-letter prefix naming the key type, then 16 upper-case base32 characters.
// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html#identifiers-unique-ids
const AWS_KEY = /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z2-7]{16}\b/g;
// PEM (RFC 7468) private keys; normalised text has its newlines folded to spaces, so `.` is enough.
const PEM =
  /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$)/g;
// A JWT's first part runs to the end of its run of base64url characters, so every "eyJ" in one run
// succeeds or fails alike: the lookbehind tries only the first (the same matches; without it, each
// "eyJ" of a long "eyJaaaaaaaa-eyJ…" rescans the run to its end, O(n²)).
const JWT = /\beyJ(?<!\beyJ[A-Za-z0-9_-]*?eyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
// Vendor token formats, each with the prefix its issuer documents:
// GitHub https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/,
// Slack https://api.slack.com/authentication/token-types, Stripe https://docs.stripe.com/keys,
// Google API keys (AIza + 35), OpenAI (sk-, sk-proj-), JWT (RFC 7519: base64url header "eyJ").
const TOKENS = [
  /\bgh[pousr]_[A-Za-z0-9]{36,251}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
  /\bxox[abposer]-[A-Za-z0-9-]{10,250}\b/g,
  /\b[sr]k_(?:live|test)_[A-Za-z0-9]{20,247}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
  /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,200}(?![A-Za-z0-9_-])/g,
  JWT,
];
const TOKEN_HINT = /gh[pousr]_|github_pat_|xox|k_live_|k_test_|AIza|sk-|eyJ/;

function collect(text: string, pattern: RegExp, label: PiiSpan["label"], out: PiiSpan[]): void {
  for (const m of text.matchAll(pattern)) out.push({ start: m.index, end: m.index + m[0].length, label });
}

export const secretsRecognizer: Recognizer = {
  entities: ["AWS_ACCESS_KEY", "PRIVATE_KEY", "API_KEY"],
  find(text, out) {
    collect(text, AWS_KEY, "AWS_ACCESS_KEY", out);
    if (text.includes("-----BEGIN")) collect(text, PEM, "PRIVATE_KEY", out);
    if (!TOKEN_HINT.test(text)) return;
    for (const pattern of TOKENS) collect(text, pattern, "API_KEY", out);
  },
};
