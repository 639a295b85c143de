import { base58CheckVersion, bech32Valid } from "./checksums.js";
import type { Recognizer } from "./recognizer.js";

// Legacy P2PKH ("1…", version 0x00) and P2SH ("3…", version 0x05) addresses, Base58Check-encoded.
const BASE58_ADDRESS = /\b[13][1-9A-HJ-NP-Za-km-z]{25,34}\b/g;
// SegWit v0 (bech32) and Taproot (bech32m) addresses; BIP-173 forbids mixed case.
const BECH32_ADDRESS = /\b(?:bc|tb)1[02-9ac-hj-np-z]{11,71}\b|\b(?:BC|TB)1[02-9AC-HJ-NP-Z]{11,71}\b/g;

export const cryptoRecognizer: Recognizer = {
  entities: ["CRYPTO"],
  find(text, out) {
    for (const m of text.matchAll(BASE58_ADDRESS)) {
      const version = base58CheckVersion(m[0]);
      if (version === 0x00 || version === 0x05) {
        out.push({ start: m.index, end: m.index + m[0].length, label: "CRYPTO" });
      }
    }
    if (!/\b(?:bc|tb)1/i.test(text)) return;
    for (const m of text.matchAll(BECH32_ADDRESS)) {
      if (bech32Valid(m[0].toLowerCase()))
        out.push({ start: m.index, end: m.index + m[0].length, label: "CRYPTO" });
    }
  },
};
