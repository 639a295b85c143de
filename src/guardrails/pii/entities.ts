/** Every entity type the pii guardrail can find, in the order results are reported. */
export const PII_ENTITIES = [
  "EMAIL_ADDRESS",
  "PHONE_NUMBER",
  "CREDIT_CARD",
  "IBAN_CODE",
  "US_SSN",
  "US_DRIVER_LICENSE",
  "IP_ADDRESS",
  "CRYPTO",
  "URL",
  "DATE_TIME",
  "PERSON",
  "LOCATION",
  "ORGANIZATION",
  "ADDRESS",
  "AWS_ACCESS_KEY",
  "PRIVATE_KEY",
  "API_KEY",
] as const;

export type PiiEntity = (typeof PII_ENTITIES)[number];

/** The entities found by lexicons and capitalisation rather than patterns and checksums. */
export const NAME_ENTITIES: readonly PiiEntity[] = ["PERSON", "LOCATION", "ORGANIZATION", "ADDRESS"];

/** When two findings overlap the more specific one wins: a checksum beats a shape, a shape a name. */
export const PRIORITY: Readonly<Record<PiiEntity, number>> = {
  PRIVATE_KEY: 17,
  API_KEY: 16,
  AWS_ACCESS_KEY: 15,
  CRYPTO: 14,
  IBAN_CODE: 13,
  CREDIT_CARD: 12,
  EMAIL_ADDRESS: 11,
  URL: 10,
  US_SSN: 9,
  IP_ADDRESS: 8,
  PHONE_NUMBER: 7,
  DATE_TIME: 6,
  US_DRIVER_LICENSE: 5,
  ADDRESS: 4,
  ORGANIZATION: 3,
  PERSON: 2,
  LOCATION: 1,
};
