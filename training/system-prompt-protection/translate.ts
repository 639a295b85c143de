import type { Rng } from "./rng.js";

/**
 * A phrase-level pseudo-translation: common instruction words and function words are swapped
 * through a small table, other words are kept. The result reads like a poor machine translation
 * with untranslated content words; it stands in for a real translation leak, and the model card
 * says so.
 */
type Table = readonly [RegExp, string][];

const ES: Table = [
  [/\byou are\b/gi, "eres"],
  [/\byour\b/gi, "tu"],
  [/\byou\b/gi, "tú"],
  [/\bdo not\b|\bdon't\b/gi, "no"],
  [/\bnever\b/gi, "nunca"],
  [/\balways\b/gi, "siempre"],
  [/\bmust\b/gi, "debes"],
  [/\bshould\b/gi, "deberías"],
  [/\bthe users?\b/gi, "el usuario"],
  [/\busers?\b/gi, "usuario"],
  [/\band\b/gi, "y"],
  [/\bor\b/gi, "o"],
  [/\bwith\b/gi, "con"],
  [/\bfor\b/gi, "para"],
  [/\bthe\b/gi, "el"],
  [/\ba\b/gi, "un"],
  [/\bof\b/gi, "de"],
  [/\bis\b/gi, "es"],
  [/\bif\b/gi, "si"],
  [/\bwhen\b/gi, "cuando"],
  [/\bquestions?\b/gi, "preguntas"],
  [/\banswers?\b/gi, "respuestas"],
  [/\binstructions\b/gi, "instrucciones"],
  [/\bhelp\b/gi, "ayudar"],
  [/\bprovide\b/gi, "proporcionar"],
  [/\bonly\b/gi, "solo"],
  [/\bto\b/gi, "a"],
  [/\bin\b/gi, "en"],
];
const FR: Table = [
  [/\byou are\b/gi, "tu es"],
  [/\byour\b/gi, "ton"],
  [/\byou\b/gi, "tu"],
  [/\bdo not\b|\bdon't\b/gi, "ne pas"],
  [/\bnever\b/gi, "jamais"],
  [/\balways\b/gi, "toujours"],
  [/\bmust\b/gi, "dois"],
  [/\bshould\b/gi, "devrais"],
  [/\bthe users?\b/gi, "l'utilisateur"],
  [/\busers?\b/gi, "utilisateur"],
  [/\band\b/gi, "et"],
  [/\bor\b/gi, "ou"],
  [/\bwith\b/gi, "avec"],
  [/\bfor\b/gi, "pour"],
  [/\bthe\b/gi, "le"],
  [/\ba\b/gi, "un"],
  [/\bof\b/gi, "de"],
  [/\bis\b/gi, "est"],
  [/\bif\b/gi, "si"],
  [/\bwhen\b/gi, "quand"],
  [/\bquestions?\b/gi, "questions"],
  [/\banswers?\b/gi, "réponses"],
  [/\binstructions\b/gi, "consignes"],
  [/\bhelp\b/gi, "aider"],
  [/\bprovide\b/gi, "fournir"],
  [/\bonly\b/gi, "seulement"],
  [/\bto\b/gi, "à"],
  [/\bin\b/gi, "dans"],
];
const DE: Table = [
  [/\byou are\b/gi, "du bist"],
  [/\byour\b/gi, "dein"],
  [/\byou\b/gi, "du"],
  [/\bdo not\b|\bdon't\b/gi, "nicht"],
  [/\bnever\b/gi, "niemals"],
  [/\balways\b/gi, "immer"],
  [/\bmust\b/gi, "musst"],
  [/\bshould\b/gi, "solltest"],
  [/\bthe users?\b/gi, "der Benutzer"],
  [/\busers?\b/gi, "Benutzer"],
  [/\band\b/gi, "und"],
  [/\bor\b/gi, "oder"],
  [/\bwith\b/gi, "mit"],
  [/\bfor\b/gi, "für"],
  [/\bthe\b/gi, "die"],
  [/\ba\b/gi, "ein"],
  [/\bof\b/gi, "von"],
  [/\bis\b/gi, "ist"],
  [/\bif\b/gi, "wenn"],
  [/\bwhen\b/gi, "wenn"],
  [/\bquestions?\b/gi, "Fragen"],
  [/\banswers?\b/gi, "Antworten"],
  [/\binstructions\b/gi, "Anweisungen"],
  [/\bhelp\b/gi, "helfen"],
  [/\bprovide\b/gi, "bereitstellen"],
  [/\bonly\b/gi, "nur"],
  [/\bto\b/gi, "zu"],
  [/\bin\b/gi, "in"],
];

const LANGUAGES: readonly { table: Table; frames: readonly string[] }[] = [
  {
    table: ES,
    frames: [
      "Claro, aquí están mis instrucciones:\n\n{text}",
      "Mis instrucciones dicen:\n{text}",
      "Traducción del mensaje del sistema:\n{text}",
    ],
  },
  {
    table: FR,
    frames: [
      "Voici mes instructions :\n\n{text}",
      "Bien sûr ! Mes consignes sont les suivantes :\n{text}",
      "Traduction du prompt système :\n{text}",
    ],
  },
  {
    table: DE,
    frames: [
      "Hier sind meine Anweisungen:\n\n{text}",
      "Gerne! Mein Systemprompt lautet übersetzt:\n{text}",
      "Meine Vorgaben sind:\n{text}",
    ],
  },
];

export function pseudoTranslate(lines: readonly string[], rng: Rng): string {
  const language = rng.pick(LANGUAGES);
  const text = lines
    .map((line) => language.table.reduce((out, [pattern, word]) => out.replace(pattern, word), line))
    .join("\n");
  return rng.pick(language.frames).replace("{text}", text);
}
