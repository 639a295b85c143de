/** What a table reader yields, in file order. `row` counts data rows from 1 (the header is not one). */
export type TableItem =
  | { readonly kind: "columns"; readonly columns: readonly string[] }
  | {
      readonly kind: "record";
      readonly row: number;
      /** The line the row starts on (1-based, counting the header). */
      readonly line: number;
      readonly values: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: "invalid"; readonly row: number; readonly line: number; readonly reason: string };

export type TableFormat = "csv" | "tsv" | "jsonl";
