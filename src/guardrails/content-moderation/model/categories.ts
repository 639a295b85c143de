/**
 * The content_moderation taxonomy. The spec (docs/service-spec.md) names UNETHICAL and VIOLENCE; the rest follows the
 * MLCommons AILuminate / Llama Guard 3 hazard list (https://mlcommons.org/ailuminate/ and
 * https://huggingface.co/meta-llama/Llama-Guard-3-8B), merged where a response-level classifier
 * trained on a few thousand examples cannot tell two hazards apart. Order is the weight layout:
 * append only, and retrain when it changes.
 */
export const MODERATION_CATEGORIES = [
  "VIOLENCE",
  "WEAPONS",
  "CRIMINAL",
  "CYBERCRIME",
  "HATE",
  "HARASSMENT",
  "SEXUAL",
  "CHILD_ABUSE",
  "SELF_HARM",
  "PRIVACY",
  "MISINFORMATION",
  "SPECIALIZED_ADVICE",
  "UNETHICAL",
] as const;

export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

/** What each category covers, for the model card and for users reading a finding. */
export const CATEGORY_DESCRIPTIONS: Record<ModerationCategory, string> = {
  VIOLENCE: "violent crimes, terrorism, assault, threats of violence, animal cruelty",
  WEAPONS: "weapons and indiscriminate weapons: explosives, chemical, biological, radiological, nuclear",
  CRIMINAL: "non-violent crimes: fraud, scams, theft, drugs, trafficking, counterfeiting, evasion",
  CYBERCRIME: "malware, hacking and intrusion, phishing, spam, abuse of code execution",
  HATE: "demeaning or dehumanising people for a protected characteristic",
  HARASSMENT: "bullying, insults and abusive language aimed at a person",
  SEXUAL: "sexually explicit content and sex-related crimes",
  CHILD_ABUSE: "child sexual exploitation, grooming and abuse of minors",
  SELF_HARM: "encouraging or enabling suicide, self-injury or disordered eating",
  PRIVACY: "exposing, collecting or tracking personal information without consent",
  MISINFORMATION: "disinformation, defamation of real people, election manipulation",
  SPECIALIZED_ADVICE: "unqualified medical, legal or financial advice presented as safe to act on",
  UNETHICAL: "deception, manipulation, cheating, plagiarism and intellectual-property infringement",
};

/**
 * MLCommons AILuminate hazard codes (and the Llama Guard 3 S-codes they match) → our category.
 * The training script uses this to label the AILuminate prompts, so it is the mapping in force.
 */
export const HAZARD_MAPPING: Record<
  string,
  { hazard: string; llamaGuard: string; category: ModerationCategory }
> = {
  vcr: { hazard: "violent crimes", llamaGuard: "S1", category: "VIOLENCE" },
  ncr: { hazard: "non-violent crimes", llamaGuard: "S2", category: "CRIMINAL" },
  src: { hazard: "sex-related crimes", llamaGuard: "S3", category: "SEXUAL" },
  cse: { hazard: "child sexual exploitation", llamaGuard: "S4", category: "CHILD_ABUSE" },
  dfm: { hazard: "defamation", llamaGuard: "S5", category: "MISINFORMATION" },
  spc_fin: { hazard: "specialized advice (financial)", llamaGuard: "S6", category: "SPECIALIZED_ADVICE" },
  spc_hlt: { hazard: "specialized advice (health)", llamaGuard: "S6", category: "SPECIALIZED_ADVICE" },
  spc_lgl: { hazard: "specialized advice (legal)", llamaGuard: "S6", category: "SPECIALIZED_ADVICE" },
  prv: { hazard: "privacy", llamaGuard: "S7", category: "PRIVACY" },
  ipv: { hazard: "intellectual property", llamaGuard: "S8", category: "UNETHICAL" },
  iwp: { hazard: "indiscriminate weapons (CBRNE)", llamaGuard: "S9", category: "WEAPONS" },
  hte: { hazard: "hate", llamaGuard: "S10", category: "HATE" },
  ssh: { hazard: "suicide and self-harm", llamaGuard: "S11", category: "SELF_HARM" },
  sxc_prn: { hazard: "sexual content", llamaGuard: "S12", category: "SEXUAL" },
  spc_ele: { hazard: "elections", llamaGuard: "S13", category: "MISINFORMATION" },
  cia: { hazard: "code interpreter abuse", llamaGuard: "S14", category: "CYBERCRIME" },
};
