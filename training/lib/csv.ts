/** Header-keyed rows of a CSV, throwing on a row of the wrong width: the project's one CSV module. */
export { parseCsvObjects as parseCsv } from "../../src/text/csv.js";
