import { createHash } from "node:crypto";

/** Luhn mod-10, https://en.wikipedia.org/wiki/Luhn_algorithm (ISO/IEC 7812-1 annex B). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * IBAN check digits, ISO 13616 mod-97-10 (https://en.wikipedia.org/wiki/International_Bank_Account_Number
 * #Validating_the_IBAN): move the first four characters to the end, letters become 10..35, the
 * number mod 97 must be 1. Computed piecewise so no bignum is needed.
 */
export function ibanMod97Valid(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (let i = 0; i < moved.length; i++) {
    const c = moved.charCodeAt(i);
    if (c >= 48 && c <= 57) rest = (rest * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) rest = (rest * 100 + (c - 55)) % 97;
    else return false;
  }
  return rest === 1;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * Base58Check (https://en.bitcoin.it/wiki/Base58Check_encoding): the last 4 bytes are the first 4
 * of SHA-256(SHA-256(payload)). Returns the version byte, or undefined when the checksum fails.
 */
export function base58CheckVersion(text: string): number | undefined {
  let bytes: number[] = [0];
  for (const ch of text) {
    let carry = BASE58.indexOf(ch);
    if (carry < 0) return undefined;
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] ?? 0) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  bytes = bytes.reverse();
  // Each leading "1" is a leading zero byte.
  let zeros = 0;
  while (text[zeros] === "1") zeros++;
  while (bytes.length > 0 && bytes[0] === 0) bytes.shift();
  const full = Buffer.from([...new Array<number>(zeros).fill(0), ...bytes]);
  if (full.length !== 25) return undefined;
  const payload = full.subarray(0, 21);
  const first = createHash("sha256").update(payload).digest();
  const second = createHash("sha256").update(first).digest();
  return second.subarray(0, 4).equals(full.subarray(21)) ? full[0] : undefined;
}

const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

/**
 * Bech32 (BIP-173, https://github.com/bitcoin/bips/blob/master/bip-0173.mediawiki) and Bech32m
 * (BIP-350, constant 0x2bc830a3) checksums over a lower-cased address.
 */
export function bech32Valid(address: string): boolean {
  const sep = address.lastIndexOf("1");
  if (sep < 1 || address.length - sep < 7) return false;
  const hrp = address.slice(0, sep);
  let chk = 1;
  const step = (value: number) => {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i] ?? 0;
  };
  for (let i = 0; i < hrp.length; i++) step(hrp.charCodeAt(i) >>> 5);
  step(0);
  for (let i = 0; i < hrp.length; i++) step(hrp.charCodeAt(i) & 31);
  for (let i = sep + 1; i < address.length; i++) {
    const v = BECH32.indexOf(address[i] ?? "");
    if (v < 0) return false;
    step(v);
  }
  return chk === 1 || chk === 0x2bc830a3;
}
