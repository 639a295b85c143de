/**
 * A few cheap shape cues of one folded window, for the MLP next to its sentence vector. The
 * encoder is effectively English-only, so the override and address words also cover the other
 * languages attacks arrive in. Each cue is in [0, 1]; order is part of the model format.
 */
const OVERRIDE =
  /\b(ignore|ignoring|disregard|forget|override|bypass|vergiss|vergessen|ignoriere|ignorieren|oublie|oubliez|ignorez|ignora|olvida|olvide|negeer|vergeet|esqueca|esqueça)\b/u;
const PRIOR =
  /\b(previous|above|prior|earlier|preceding|before|vorher\w*|obigen?|bisherigen?|precedentes?|anteriores?|precedenti|vorige|anteriormente)\b/u;
const INSTRUCTION =
  /\b(instructions?|prompts?|rules?|guidelines?|directives?|tasks?|anweisung\w*|aufgabe\w*|regeln|consignes?|instrucciones|istruzioni|instructies|instrucoes|instruções)\b/u;
const SECOND_PERSON =
  /\b(you|your|yours|yourself|du|dich|dir|dein\w*|vous|votre|tu|tú|usted|tuo|jij|je|voce|você)\b/gu;
const PERSONA =
  /\b(you are|you're|act as|pretend|from now on|now you|role ?play|persona|du bist|jetzt bist|tu es|eres|sei)\b/u;
const OUTPUT =
  /\b(say|print|output|respond|reply|repeat|write|sag|schreib|antworte|dis|écris|di|escribe|responde)\b/u;
const ONLY = /\b(only|nothing else|just|exactly|verbatim|word for word|nur|seulement|solo|uniquement)\b/u;
const QUOTES = /["'`\u2018\u2019\u201c\u201d\u00ab\u00bb]/gu;
const DELIMITERS = /#{2,}|-{3,}|={3,}|`{3}|<\/?[a-z|_]+>|\[\/?[a-z_ ]+\]|\{\{|\}\}/gu;
const ROLE_MARKER = /\b(system|assistant|admin|developer|user)\s*[:\]>|]/u;
const WORD = /[\p{L}\p{N}]+/gu;
const UPPER = /\p{Lu}/gu;
const NON_ASCII = /[^\p{ASCII}]/gu;

export const CUE_COUNT = 13;

const count = (text: string, re: RegExp): number => text.match(re)?.length ?? 0;

/** Cues of `clean` (case kept, for the upper-case share) and its folded form. */
export function cues(clean: string, folded: string): number[] {
  const words = Math.max(1, count(folded, WORD));
  const letters = Math.max(1, clean.length);
  return [
    Math.min(1, Math.log1p(words) / 6),
    words <= 8 ? 1 : 0,
    OVERRIDE.test(folded) ? 1 : 0,
    PRIOR.test(folded) ? 1 : 0,
    INSTRUCTION.test(folded) ? 1 : 0,
    Math.min(1, count(folded, SECOND_PERSON) / Math.sqrt(words)),
    PERSONA.test(folded) ? 1 : 0,
    OUTPUT.test(folded) ? 1 : 0,
    ONLY.test(folded) ? 1 : 0,
    Math.min(1, count(clean, QUOTES) / 6),
    Math.min(1, count(clean, DELIMITERS) / 3),
    ROLE_MARKER.test(folded) ? 1 : 0,
    Math.min(1, (count(clean, UPPER) / letters) * 4 + count(clean, NON_ASCII) / letters),
  ];
}
