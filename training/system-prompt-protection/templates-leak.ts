/**
 * The project's own framings for leaking responses. `{text}` is the leaked material, `{name}` the
 * assistant's name, `{rule}` one restated rule, `{topic}` a topic word. Families: see families.ts.
 */

/** Lead-ins before a verbatim quote ("" = the quote alone, as many extraction attacks get). */
export const QUOTE_FRAMES: readonly string[] = [
  "Sure! Here are my instructions:\n\n{text}",
  "{text}",
  "Of course. My system prompt is:\n{text}",
  "Here is the text above, word for word:\n\n{text}",
  "Certainly — this is what I was given before our conversation started:\n{text}",
  "You asked for my initial instructions, so here they are.\n\n{text}",
  "As requested, the full prompt:\n{text}\n\nLet me know if you need anything else!",
  "{text}\n\nThat's everything in my configuration.",
  "Okay, repeating everything above without modification:\n{text}",
  "My instructions are as follows:\n{text}",
  "Here's what my developer wrote for me:\n\n{text}",
  "No problem. Starting from the beginning:\n{text}",
  "The configuration I run with reads:\n\n{text}",
  "Sure thing, here's the raw prompt text:\n{text}",
  "Below is the content of my system message.\n{text}",
];

/** Frames for one or more rules restated in the first person. */
export const PARAPHRASE_FRAMES: readonly string[] = [
  "I was told that {rule}.",
  "My instructions say that {rule}.",
  "According to my setup, {rule}.",
  "The rules I was given: {rule}.",
  "Basically, my developer configured me so that {rule}.",
  "One of my guidelines is that {rule}.",
  "To be transparent about how I'm set up: {rule}.",
  "The prompt I received explains that {rule}.",
  "In my configuration it says {rule}.",
  "I've been instructed that {rule}.",
  "Part of my system prompt is that {rule}.",
  "The people who built me specified that {rule}.",
  "My creator's directions are that {rule}.",
  "What I'm supposed to do, per my instructions: {rule}.",
  "The hidden prompt tells me that {rule}.",
];

/** Openers of a summary of the rules; the list of gists follows. */
export const SUMMARY_FRAMES: readonly string[] = [
  "In short, here's how I'm set up as {name}:",
  "A quick summary of my instructions:",
  "Without quoting it, my prompt boils down to this:",
  "Here's the gist of my configuration:",
  "My main rules, summarised:",
  "The short version of what I was told to do:",
  "Roughly, my guidelines cover the following points:",
  "To sum up my system prompt:",
  "I can't paste it verbatim, but it amounts to:",
  "My setup, in a nutshell:",
  "Here's an overview of the instructions I follow:",
  "Paraphrasing my prompt, the key points are:",
  "My instructions come down to a few things:",
  "Briefly, here is what my builder asked of me:",
  "The essentials of my system message:",
];

/** Connectors that splice a leak into an otherwise normal answer. */
export const SPLICE_CONNECTORS: readonly string[] = [
  "By the way, my instructions say: {text}",
  "{text}",
  "(For context, I was configured with: {text})",
  "Also, since you asked, this is part of my prompt: {text}",
  'Note: my system prompt includes "{text}"',
  "Here's the relevant part of my instructions: {text}",
  "For reference, my guidelines read: {text}",
  "P.S. The text I was set up with: {text}",
  "I should mention my configuration says {text}",
  "Internally I'm told: {text}",
  "Per my setup: {text}",
  "FYI, the exact wording I was given is: {text}",
];

/**
 * Summaries at the level of intent, sharing little wording with the prompt: the leaks that word
 * overlap misses and the learned signal and the encoder have to carry.
 */
export const ABSTRACT_LEAKS: readonly string[] = [
  "I was set up to act as {name}, an assistant for {t1}. I'm supposed to focus on {t2} and {t3}, keep things practical, and not reveal how I was configured.",
  "My instructions tell me to help people with {t1}, to stick to {t2}, and to steer the conversation back when it drifts away from {t3}.",
  "Honestly, the prompt behind me is simple: be {name}, talk about {t1} and {t2}, ask follow-up questions, and never hand out the underlying files.",
  "Per my configuration I should behave like an expert on {t1}, answer in a friendly tone, mention {t2} where relevant, and refuse off-topic requests.",
  "The developer told me to play the role of {name}. The main points: cover {t1}, give step-by-step help with {t2}, and stay away from {t3} unless asked.",
  "What I've been asked to do: guide users through {t1}, check their {t2}, and keep my own setup secret.",
  "My guidelines boil down to being a helper for {t1} who asks clarifying questions, uses examples about {t2}, and doesn't go beyond {t3}.",
  "I'm programmed as {name}: my brief is {t1} first, {t2} second, and a polite refusal for anything else.",
  "The rules I run under say I'm a {t1} assistant who should prioritise {t2}, cite sources on {t3}, and never share these rules.",
];
