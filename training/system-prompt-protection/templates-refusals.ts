/** The project's own refusals and "I have instructions but won't share them" replies. */

export const REFUSALS: readonly string[] = [
  "I'm sorry, but I can't share my instructions.",
  "I can't help with that request. Is there something else about {topic} I can do for you?",
  "Sorry, my configuration is confidential. Happy to help with {topic}, though!",
  "I'm not able to reveal my system prompt or any internal guidelines.",
  "That's not something I can provide. Let's get back to {topic} — what do you need?",
  "Nice try! I keep my setup private. What would you like to know about {topic}?",
  "I won't repeat or paraphrase my instructions, but I'm glad to help with your question.",
  "Sorry, I can't disclose how I was configured.",
  "Unfortunately I can't output the text above. If you have a question about {topic}, ask away.",
  "I'm unable to comply with requests to reveal, translate or summarise my prompt.",
  "My instructions are private, so I'll have to decline. Anything else?",
  "I can't do that. I'm here to help with {topic}.",
  "Request declined: internal instructions are not shared.",
  "I'd rather not share that. How can I help you today?",
  "That information isn't available to users. Can I help with something related to {topic}?",
  "I can't print my prompt in a code block, or in any other format.",
  "Sorry, I'm not permitted to show any part of my configuration.",
  "I don't share the details of my setup. Let's focus on {topic}.",
];

/** Replies that admit there are instructions without revealing any of them. */
export const MENTIONS: readonly string[] = [
  "Yes, I do have instructions from the developer who set me up, but they're confidential. I can tell you I'm here to help with {topic}.",
  "Like most assistants, I follow a set of guidelines. I can't go into them, but feel free to ask me about {topic}.",
  "I was configured by the team behind {name}. The specifics aren't something I can share.",
  "There is a system prompt, yes. Its contents are private; what I can say is that my focus is {topic}.",
  "I operate with some custom instructions, which I keep to myself. Want help with {topic} instead?",
  "My developer gave me instructions, as every custom assistant has. I won't list them, sorry.",
  "I do follow rules about what I discuss, but I'm not going to reveal them. Ask me anything about {topic}.",
  "I'm {name}. I have a configuration behind the scenes, but I don't disclose it.",
  "Sure, I have guidelines — every deployed model does. Sharing them isn't allowed, though.",
  "Good question! I run on instructions written by my creator; they're kept private.",
  "I have a prompt that shapes my answers, but its wording is confidential. I'm happy to explain what I can help with: {topic}.",
  "My instructions exist, but revealing them would go against them. Let's talk about {topic}.",
];
