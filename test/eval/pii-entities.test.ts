import { describe, expect, it } from "vitest";
import { PiiEntityTally } from "../../src/eval/pii-entities.js";

describe("PiiEntityTally", () => {
  it("gives each entity type's recall over its rows and precision over the rows that report it", () => {
    const t = new PiiEntityTally();
    t.add("EMAIL_ADDRESS", true, ["EMAIL_ADDRESS"]);
    t.add("EMAIL_ADDRESS", true, []);
    t.add("PHONE_NUMBER", true, ["PHONE_NUMBER", "EMAIL_ADDRESS"]);
    t.add("none", false, ["DATE_TIME"]);
    // A positive row whose category names no type: its reports count for none.
    t.add("mixed", true, ["EMAIL_ADDRESS", "US_SSN"]);
    expect(t.summary()).toEqual({
      EMAIL_ADDRESS: { rows: 2, found: 1, reported: 2, recall: 0.5, precision: 0.5 },
      PHONE_NUMBER: { rows: 1, found: 1, reported: 1, recall: 1, precision: 1 },
      DATE_TIME: { rows: 0, found: 0, reported: 1, recall: null, precision: 0 },
    });
  });

  it("is null for a data set whose categories name no entity type, or without pii", () => {
    const t = new PiiEntityTally();
    t.add("jailbreak", true, ["EMAIL_ADDRESS"]);
    t.add("EMAIL_ADDRESS", true, undefined);
    expect(t.summary()).toBeNull();
  });
});
