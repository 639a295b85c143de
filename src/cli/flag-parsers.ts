import { InvalidArgumentError } from "@commander-js/extra-typings";
import { UsageError } from "../errors.js";
import { parseShard, type Shard } from "../eval/shard.js";
import { STREAM_MODES } from "../stream/modes.js";

/**
 * Parsers for commander's `.option(flags, description, parser)`: a flag's value is checked and
 * turned into a number as it is read, so commands never see numbers as strings.
 */

/** A whole number in [min, max]; commander prefixes the message with the option and the value. */
export function integer(flag: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`${flag} must be a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

const inUnitRange = (text: string, value: number) =>
  text.trim() !== "" && Number.isFinite(value) && value >= 0 && value <= 1;

/**
 * A number in [0, 1]. Its message keeps the short form these flags have always had: commander adds
 * its "option '…' argument '…' is invalid." prefix only to an InvalidArgumentError, and lets a
 * UsageError through to be printed like any other.
 */
export function fraction(flag: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!inUnitRange(text, value)) throw new UsageError(`${flag} must be a number from 0 to 1`);
    return value;
  };
}

/** A number in [0, 1], quoted in the message as `--fail-under`'s gate values are (see eval/gates). */
export function gateFraction(flag: string) {
  return (text: string): number => {
    const value = Number(text);
    if (!inUnitRange(text, value)) throw new UsageError(`${flag}: "${text}" is not a number from 0 to 1`);
    return value;
  };
}

/** One of a fixed set of words, typed as that set. */
export function oneOf<const T extends string>(flag: string, words: readonly T[]) {
  const or = `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
  return (value: string): T => {
    if ((words as readonly string[]).includes(value)) return value as T;
    throw new UsageError(`${flag} must be ${or}`);
  };
}

/** `--shard i/n`, 0-based; see eval/shard. */
export function shardFlag(text: string): Shard {
  const shard = parseShard(text);
  if (typeof shard === "string") throw new UsageError(`--shard: ${shard}`);
  return shard;
}

/** `--stream-mode` of `proxy` and `check --stream`: one of the stream guard's modes. */
export const streamModeFlag = oneOf("--stream-mode", STREAM_MODES);
