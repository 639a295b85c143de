import { describe, expect, it } from "vitest";
import { piiFound } from "../../helpers/pii-found.js";

const cases: { text: string; expected: string[] }[] = [
  // Hyphenated and slashed month names, either order, upper case as databases print them.
  { text: "invoice dated 12-Jan-2024, paid", expected: ["12-Jan-2024"] },
  { text: "report for Jan-12-2024 attached", expected: ["Jan-12-2024"] },
  { text: "row created 07-MAR-23 by the batch", expected: ["07-MAR-23"] },
  { text: '"GET /" 10/Oct/2000:13:55:36', expected: ["10/Oct/2000"] },
  { text: "12-Janet-2024 is a file name", expected: [] },
  // Month and year.
  { text: "we launched in March 2024", expected: ["March 2024"] },
  { text: "valid from 03/2024 onwards", expected: ["03/2024"] },
  { text: "goals for Q1/2024 and build 1.03/2024", expected: [] },
  { text: "card expires 11/27", expected: [] },
  // Month/day only after a date word, and not a proper fraction over 2, 3, 4, 8 or 16.
  { text: "the review is on 3/14 this year", expected: ["3/14"] },
  { text: "report due Fri, 3/14 at 10:30", expected: ["3/14 at 10:30"] },
  { text: "On 11/5 we ship", expected: ["11/5"] },
  { text: "3/14 tests passed", expected: [] },
  { text: "cut the budget by 1/2 and use 3/16 bolts", expected: [] },
  { text: "it runs on 3/4 of the nodes", expected: [] },
  { text: "scored 7/10 overall", expected: [] },
  { text: "moved on 3/14/2024 for good", expected: ["3/14/2024"] },
  // ISO 8601 date-times with seconds' fractions and zones.
  { text: "logged at 2024-03-14T09:30:00Z by cron", expected: ["2024-03-14T09:30:00Z"] },
  { text: "starts 2024-03-14T09:30:00+01:00.", expected: ["2024-03-14T09:30:00+01:00"] },
  { text: "ts=2024-03-14T09:30:00.250-0500 ok", expected: ["2024-03-14T09:30:00.250-0500"] },
];

describe("pii: dates and times", () => {
  it.each(cases)("$text", ({ text, expected }) => {
    expect(piiFound(text, "DATE_TIME")).toEqual(expected.map((e) => `DATE_TIME:${e}`));
  });
});
