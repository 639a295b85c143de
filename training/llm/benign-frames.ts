import { createRng, type Example, example, pick } from "./example.js";
import { QUESTIONS } from "./hijack-frames.js";

/**
 * More benign texts around trigger words (see trigger-negatives.ts), written for this project:
 * short everyday uses of "ignore", "forget", "act as", "capable", "prompt injection", "say …",
 * "now you are …", and plain questions in the languages the hijacks use, so neither a trigger
 * word nor a language can carry a text alone. Slots: `{a}` and `{b}` from the frame's options.
 */
const FRAMES: [string, string[], string[]][] = [
  ["{a}", QUESTIONS, [""]],
  [
    "Who wrote {a}?",
    ["Pride and Prejudice", "The Old Man and the Sea", "Don Quixote", "Faust", "Hamlet"],
    [""],
  ],
  ["How tall is {a}?", ["the Eiffel Tower", "Mount Everest", "the Burj Khalifa", "an adult giraffe"], [""]],
  [
    "When did {a} happen?",
    ["the French Revolution", "the moon landing", "the fall of the Berlin Wall"],
    [""],
  ],
  ["What is the population of {a}?", ["Tokyo", "Brazil", "Lagos", "Canada", "Munich"], [""]],
  [
    "How many {a} are there in {b}?",
    ["days", "bones", "players", "states"],
    ["a leap year", "the human body", "a football team", "the USA"],
  ],
  ["What does {a} mean?", ["photosynthesis", "inflation", "a black hole", "GDP", "irony"], [""]],
  [
    "Which {a} is the largest in {b}?",
    ["country", "lake", "desert", "city"],
    ["Africa", "Europe", "the world", "South America"],
  ],
  ["Is {a} a {b}?", ["a tomato", "a whale", "a bat", "Pluto"], ["fruit", "fish", "bird", "planet"]],
  ["How do you spell {a}?", ["necessary", "rhythm", "definitely", "Wednesday"], [""]],
  ["What time is it in {a} right now?", ["Sydney", "New York", "Tokyo", "London"], [""]],
  [
    "Translate '{a}' into {b}.",
    ["good night", "where is the station", "I love you", "thank you very much"],
    ["French", "German", "Spanish", "Italian"],
  ],
  [
    "Please ignore this {a}, it is {b}.",
    ["warning", "message", "error", "reminder", "notification"],
    ["harmless", "a known bug", "from an old build", "sent by mistake"],
  ],
  [
    "Ignore the {a} in my last message, I meant {b}.",
    ["typo", "spelling mistake", "wrong date", "second paragraph"],
    ["Monday", "'their', not 'there'", "the 12th", "something else"],
  ],
  [
    "Forget it, {a}. Can you {b} instead?",
    ["I found the answer", "it doesn't matter", "I'll ask my brother", "never mind"],
    ["suggest a movie", "help me with my cover letter", "explain compound interest"],
  ],
  ["Are you as capable as {a}?", ["ChatGPT", "GPT-4", "Gemini", "a human tutor", "Siri"], [""]],
  [
    "How does {a} compare to {b} for {c}?",
    ["Claude", "ChatGPT", "Llama 3", "Mistral"],
    ["GPT-4", "Gemini", "a search engine"],
  ],
  [
    "Act as a {a} and help me {b}.",
    ["career coach", "personal trainer", "Linux terminal", "travel guide", "Socratic tutor"],
    ["plan my week", "prepare for an interview", "learn basic commands", "pick a city to visit"],
  ],
  [
    "What is a prompt injection attack, and is {a} vulnerable to it?",
    ["my customer-support bot", "a RAG system", "an email summariser", "GitHub Copilot"],
    [""],
  ],
  [
    "Can you give me examples of {a} so I can {b}?",
    ["jailbreak prompts people tried on chatbots", "prompt injection payloads", "phishing emails"],
    ["write test cases for our filter", "train my team", "explain them in a talk"],
  ],
  [
    "How do I say '{a}' in {b}?",
    ["thank you", "ignore me", "forget it", "good morning", "I have been waiting"],
    ["German", "Japanese", "Spanish", "Italian"],
  ],
  [
    "Now you are ready to {a}. What should I {b} first?",
    ["start the course", "bake the cake", "paint the wall"],
    ["prepare", "check", "buy"],
  ],
  [
    "Which {a} is the best for {b}?",
    ["laptop", "running shoe", "vacuum cleaner", "password manager"],
    ["students", "beginners", "a small flat", "a family"],
  ],
  [
    "Don't forget to {a} before {b}.",
    ["back up your files", "water the plants", "lock the door"],
    ["the update", "you leave", "the holiday"],
  ],
  [
    "The previous version of the {a} had a bug; what changed in the new {b}?",
    ["app", "library", "firmware"],
    ["release", "instructions", "settings"],
  ],
  [
    "Write a story in which a detective must {a} to {b}.",
    ["ignore a false clue", "forget her past", "break the rules"],
    ["solve the case", "save her partner", "find the thief"],
  ],
  ["Tell me what you can and cannot do as an {a}.", ["AI assistant", "language model", "chatbot"], [""]],
  [
    "Repeat after me to practise pronunciation: '{a}'.",
    ["the quick brown fox", "she sells sea shells", "red lorry, yellow lorry"],
    [""],
  ],
  [
    "My boss told me to override the {a} in the {b}. How do I do that?",
    ["default settings", "print margins", "auto-save interval"],
    ["spreadsheet", "printer driver", "editor"],
  ],
  [
    "{a}",
    [
      "Wie ist das Wetter morgen in Hamburg?",
      "Was kann ich heute Abend kochen?",
      "Wie viele Einwohner hat Österreich?",
      "Vergiss nicht, mir eine Liste für den Einkauf zu schreiben.",
      "Kannst du mir erklären, wie die Rente in Deutschland funktioniert?",
      "Welche Bücher empfiehlst du für den Urlaub?",
      "Quel temps fera-t-il demain à Lyon ?",
      "Comment préparer une bonne ratatouille ?",
      "¿Cuál es la mejor época para visitar Madrid?",
      "¿Cómo puedo mejorar mi currículum?",
      "Qual è la capitale dell'Australia?",
      "Hoe laat gaat de supermarkt open?",
      "Como faço para abrir uma conta bancária?",
    ],
    [""],
  ],
];

export function buildBenignFrames(seed: number, perFrame = 10): Example[] {
  const rng = createRng(seed);
  const out: Example[] = [];
  FRAMES.forEach(([frame, a, b], i) => {
    const seen = new Set<string>();
    for (let k = 0; k < perFrame * 4 && seen.size < perFrame; k++) {
      seen.add(
        frame
          .replace("{a}", pick(a, rng))
          .replace("{b}", pick(b, rng))
          .replace("{c}", pick(["coding", "writing essays", "maths homework"], rng))
          .replace(/\s+([?.])/gu, "$1"),
      );
    }
    for (const text of seen)
      out.push(example(text, 0, "project-trigger-words-2", `trigger2:${i}`, "hard", text));
  });
  return out;
}
